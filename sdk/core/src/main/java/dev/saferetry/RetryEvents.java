package dev.saferetry;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

/**
 * A client's resilience4j {@link Retry}, told of every decision {@link Decision} makes, so that its
 * event publisher and metrics describe the calls: a success is {@code onComplete}; a retry is an
 * error it retries after the decided wait ({@code onRetry} with that wait); retries stopped by a
 * limit are an error it stops on ({@code onError}); an answer that ends the call at once is an
 * error it ignores ({@code onIgnoredError}). The decision counts the attempts, so the retry's own
 * maximum never stops a call first. resilience4j never sleeps here: the call waits on its sleeper.
 */
final class RetryEvents {
  private RetryEvents() {}

  /** An attempt retried after {@link #millis}, or not retried when it is -1. */
  static final class Retrying extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long millis;

    private Retrying(long millis) {
      super(millis < 0 ? "retries stopped" : "retry in " + millis + " ms", null, false, false);
      this.millis = millis;
    }
  }

  /** An answer that ends the call at once. */
  static final class Definitive extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private Definitive() {
      super("definitive answer", null, false, false);
    }
  }

  /** Retries stopped by a limit. */
  static final RuntimeException STOPPED = new Retrying(-1);

  /** An answer that ends the call at once. */
  static final RuntimeException DEFINITIVE = new Definitive();

  /** A retry after {@code delay}. */
  static RuntimeException retrying(Duration delay) {
    return new Retrying(delay.toMillis());
  }

  /** Creates the client's retry, named after the client. */
  static Retry create(String name) {
    return Retry.of(
        name,
        RetryConfig.<Object>custom()
            .maxAttempts(Integer.MAX_VALUE)
            .retryOnException(t -> t instanceof Retrying)
            .intervalBiFunction((n, failed) -> ((Retrying) failed.getLeft()).millis)
            .failAfterMaxAttempts(false)
            .build());
  }
}
