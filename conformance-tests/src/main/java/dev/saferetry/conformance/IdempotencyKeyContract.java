package dev.saferetry.conformance;

import java.util.List;
import java.util.stream.Stream;

/**
 * The server half of the Idempotency-Key contract: the cases of the replay, scope, key syntax,
 * concurrency, failure and expiry groups, and the preflight that proves the configuration can grade
 * the target. Immutable and thread-safe.
 */
final class IdempotencyKeyContract implements Contract {
  static final String NAME = "idempotency-key";
  static final IdempotencyKeyContract INSTANCE = new IdempotencyKeyContract();
  private static final List<CaseSpec> CASES =
      Stream.of(
              ReplayCases.cases(),
              ScopeCases.cases(),
              KeySyntaxCases.cases(),
              ConcurrencyCases.cases(),
              FailureCases.cases(),
              ExpiryCases.cases())
          .flatMap(List::stream)
          .toList();

  private IdempotencyKeyContract() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void preflight(Probe probe) {
    IdempotencyPreflight.run(probe);
  }

  @Override
  public List<CaseSpec> cases() {
    return CASES;
  }

  @Override
  public boolean gradesEmbeddedReferenceServer() {
    return true;
  }
}
