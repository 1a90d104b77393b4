package dev.saferetry;

import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import java.util.EnumSet;
import java.util.Set;

/**
 * A client's resilience4j {@link Retry}, which judges every attempt of its calls by SafeRetry's
 * decision ({@link Decision}): a call's attempt produces a {@link RealCall.Step}, and
 *
 * <ul>
 *   <li>its result predicate ({@code retryOnResult}) retries exactly the steps the decision said to
 *       retry, and its interval function ({@code intervalBiFunction}, which sees the step) waits
 *       the decided delay — the backoff, or the server's {@code Retry-After} — to the millisecond;
 *   <li>an ending is the exception the caller gets, and its exception predicate ({@code
 *       retryOnException}) tells the endings that stopped retries at a limit (attempts, the
 *       deadline, the budget, the breaker, a hint too long: resilience4j's {@code onError}) from
 *       the answers that end a call at once ({@code onIgnoredError}); the interval function never
 *       retries an exception;
 *   <li>the attempts are counted by the decision, since a call may set its own maximum ({@code
 *       RequestOptions.withMaxAttempts}): the retry's own {@code maxAttempts} is unbounded, so
 *       resilience4j's "failed with retry" count stays at zero and such calls are its error events.
 * </ul>
 *
 * <p>So its events ({@code onRetry}, {@code onSuccess}, {@code onError}, {@code onIgnoredError})
 * and metrics are those of the client's calls. Thread-safe.
 */
final class Retries {
  // Endings that stopped retries at a limit; every other ending answered the call at once.
  private static final Set<Reason> LIMITS =
      EnumSet.of(
          Reason.RETRIES_EXHAUSTED,
          Reason.RETRY_AFTER_TOO_LONG,
          Reason.DEADLINE_EXCEEDED,
          Reason.RETRY_BUDGET_EXHAUSTED,
          Reason.CIRCUIT_OPEN,
          Reason.CIRCUIT_OPEN_AFTER_SEND,
          Reason.IN_PROGRESS,
          Reason.NOT_SENT);

  /** The configuration of every client's retry: SafeRetry's decision, nothing of its own. */
  static final RetryConfig CONFIG =
      RetryConfig.<RealCall.Step>custom()
          .maxAttempts(Integer.MAX_VALUE)
          .retryOnResult(RealCall.Step::waits)
          .retryOnException(Retries::stoppedAtALimit)
          .intervalBiFunction((attempt, step) -> step.isRight() ? step.get().millis() : -1L)
          .failAfterMaxAttempts(false)
          .writableStackTraceEnabled(false)
          .build();

  private Retries() {}

  /**
   * The retry of a client named {@code name}: created in {@code registry} when the caller gave one
   * (its tags and event consumers then apply, and metrics bound to it see the calls), on its own
   * otherwise.
   *
   * @throws IllegalArgumentException if the registry already holds a retry of that name made for
   *     something else: the client's name must be its own
   */
  static Retry create(String name, RetryRegistry registry) {
    if (registry == null) {
      return Retry.of(name, CONFIG);
    }
    Retry retry = registry.retry(name, CONFIG);
    if (retry.getRetryConfig() != CONFIG) {
      throw new IllegalArgumentException(
          "retryRegistry already holds a retry named '" + name + "'; give the client its own name");
    }
    return retry;
  }

  private static boolean stoppedAtALimit(Throwable t) {
    return t instanceof SafeRetryException e && LIMITS.contains(e.reason());
  }
}
