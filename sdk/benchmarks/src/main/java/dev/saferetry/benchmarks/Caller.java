package dev.saferetry.benchmarks;

/**
 * One way of creating a charge, called once per benchmark iteration.
 *
 * <p>Implementations are thread-safe.
 */
interface Caller extends AutoCloseable {
  /** The name printed in the table. */
  String name();

  /**
   * Creates charge number {@code i}, unique within the run.
   *
   * @throws Exception when the call did not succeed; the benchmark then stops
   */
  void call(String runId, int i) throws Exception;

  @Override
  default void close() {}
}
