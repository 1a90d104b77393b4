package dev.saferetry.internal;

import dev.saferetry.resilience.RetryPolicy;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * Whether another attempt follows and how long to wait: decided by resilience4j's {@link Retry},
 * configured from the {@link RetryPolicy}.
 *
 * <p>Every attempt's outcome is reported to the retry's per-call context, so its events and its
 * metrics describe the calls: a success with {@code onComplete}, a definitive failure as an error
 * its exception predicate ignores (counted as failed without retry), a retryable one as an error it
 * retries. For a retryable failure the retry counts the attempt against {@code maxAttempts} and
 * asks its interval function for the delay; that function applies the rules that need more than an
 * attempt counter — the server's hint or jittered backoff, the hint ceiling, an open breaker, the
 * deadline and the retry budget — and returns {@code -1} to stop, which resilience4j publishes as
 * the call's error event. resilience4j never sleeps here: the call waits on its own sleeper, on a
 * thread or on a timer.
 *
 * <p>Thread-safe; one per client. Its {@link Context} belongs to one call.
 */
final class RetryDecision {
  /** Why retries stopped before the retry policy's attempts ran out. */
  enum Stop {
    RETRIES_EXHAUSTED,
    RETRY_AFTER_TOO_LONG,
    CIRCUIT_OPEN,
    DEADLINE,
    BUDGET
  }

  /** What follows an attempt that may be retried: a wait of {@code delay}, or a stop. */
  record Next(Duration delay, boolean serverHint, Stop stop) {
    boolean retries() {
      return stop == null;
    }
  }

  private final Retry retry;
  private final String name;
  private final RetryConfig config;

  /** Retries of calls that set their own maximum attempts, one per maximum, made when needed. */
  private final ConcurrentHashMap<Integer, Retry> overrides = new ConcurrentHashMap<>();

  private final RetryPolicy policy;
  private final Backoff backoff;
  private final Breaker breaker;
  private final RetryBudget budget;
  private final Clock clock;

  RetryDecision(
      String name,
      RetryPolicy policy,
      DoubleSupplier jitter,
      Breaker breaker,
      RetryBudget budget,
      Clock clock) {
    this.policy = policy;
    this.backoff = new Backoff(policy, jitter);
    this.breaker = breaker;
    this.budget = budget;
    this.clock = clock;
    this.name = name;
    this.config =
        RetryConfig.<Object>custom()
            .maxAttempts(policy.maxAttempts())
            .retryOnException(t -> t instanceof Retryable)
            .intervalBiFunction((n, failed) -> ((Retryable) failed.getLeft()).interval(n))
            .failAfterMaxAttempts(false)
            .build();
    this.retry = Retry.of(name, config);
  }

  /** Returns the retry's metrics: what it counted of this client's calls. */
  Retry.Metrics metrics() {
    return retry.getMetrics();
  }

  /** Returns the retry's event publisher. */
  Retry.EventPublisher events() {
    return retry.getEventPublisher();
  }

  /** Starts the decisions of one call whose attempts must all start before {@code deadline}. */
  Context start(Instant deadline) {
    return new Context(retry.asyncContext(), deadline);
  }

  /**
   * Starts the decisions of one call with its own maximum attempts (0 for the policy's). Such calls
   * are counted by a resilience4j retry of the same name configured with that maximum.
   */
  Context start(Instant deadline, int maxAttempts) {
    if (maxAttempts <= 0 || maxAttempts == policy.maxAttempts()) {
      return start(deadline);
    }
    Retry own =
        overrides.computeIfAbsent(
            maxAttempts, m -> Retry.of(name, RetryConfig.from(config).maxAttempts(m).build()));
    return new Context(own.asyncContext(), deadline);
  }

  /** The decisions of one call. Confined to the call (used by one thread at a time). */
  final class Context {
    private final Retry.AsyncContext<Object> attempts;
    private final Instant deadline;

    private Context(Retry.AsyncContext<Object> attempts, Instant deadline) {
      this.attempts = attempts;
      this.deadline = deadline;
    }

    Instant deadline() {
      return deadline;
    }

    /** The call succeeded. */
    void succeeded() {
      attempts.onComplete();
    }

    /** The call ends with a definitive failure: no retry. */
    void failed() {
      attempts.onError(Definitive.INSTANCE);
    }

    /** Decides after a retryable failure. */
    Next retryable(AttemptOutcome out) {
      Retryable failure = new Retryable(this, out);
      long millis = attempts.onError(failure);
      if (millis < 0) {
        return new Next(null, false, failure.stop == null ? Stop.RETRIES_EXHAUSTED : failure.stop);
      }
      return new Next(failure.delay, out.retryAfter() != null, null);
    }

    /** The interval function's answer for retry {@code n}: the delay in ms, or -1 to stop. */
    private long interval(Retryable failure, int n) {
      Duration hint = failure.outcome.retryAfter();
      if (hint != null && hint.compareTo(policy.maxRetryAfter()) > 0) {
        return failure.stop(Stop.RETRY_AFTER_TOO_LONG);
      }
      Duration delay = hint != null ? hint : backoff.delay(n);
      if (breaker.isOpen()) {
        return failure.stop(Stop.CIRCUIT_OPEN);
      }
      if (!clock.instant().plus(delay).isBefore(deadline)) {
        return failure.stop(Stop.DEADLINE);
      }
      if (!budget.tryAcquireRetry()) {
        return failure.stop(Stop.BUDGET);
      }
      failure.delay = delay;
      return delay.toMillis();
    }
  }

  /** A retryable attempt as resilience4j sees it: an error it retries. */
  private static final class Retryable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Context context;
    private final transient AttemptOutcome outcome;
    private transient Duration delay;
    private transient Stop stop;

    Retryable(Context context, AttemptOutcome outcome) {
      super("retryable attempt", null, false, false);
      this.context = context;
      this.outcome = outcome;
    }

    long interval(int n) {
      return context.interval(this, n);
    }

    long stop(Stop why) {
      this.stop = why;
      return -1;
    }
  }

  /** A definitive attempt as resilience4j sees it: an error it does not retry. */
  private static final class Definitive extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Definitive INSTANCE = new Definitive();

    private Definitive() {
      super("definitive answer", null, false, false);
    }
  }
}
