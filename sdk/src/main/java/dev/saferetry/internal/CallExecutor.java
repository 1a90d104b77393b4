package dev.saferetry.internal;

import dev.saferetry.Attempt;
import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.error.CircuitOpenException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.resilience.AttemptResponse;
import dev.saferetry.resilience.StandardRetryClassifier;
import dev.saferetry.resilience.Verdict;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attempt loop. The key is fixed before the loop; each iteration asks the breaker, sends the
 * same bytes with a fresh request id, classifies the answer, and lets the resilience4j retry decide
 * whether and how long to wait — within the deadline and the hint ceiling.
 */
public final class CallExecutor {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  private final ClientConfig config;
  private final Wire wire;
  private final Retry retry;
  private final CircuitBreaker breaker;
  private final Resilience.BreakerStates breakerStates;
  private final Intents intents;
  private final SafeRetryListener listener;
  private final Endings endings;
  private final RetryBudget budget;
  private final Redaction redaction;

  /** Expanded URLs of templates without variables: the same for every call. */
  private final ConcurrentHashMap<String, HttpUrl> fixedUrls = new ConcurrentHashMap<>();

  /** Creates the executor for a client. */
  public CallExecutor(ClientConfig config) {
    this.config = config;
    // A composite of one: every listener call is isolated from the caller's exceptions.
    this.listener = SafeRetryListener.composite(config.listener());
    this.wire = new Wire(config.okHttpClient(), config.clock(), config.maxResponseBytes());
    this.retry =
        Resilience.retry(
            config.name(),
            config.retryPolicy(),
            new Backoff(config.retryPolicy(), config.jitter()));
    this.breaker = Resilience.breaker(config.name(), config.breakerPolicy(), config.clock());
    this.breakerStates = new Resilience.BreakerStates(config.name(), breaker, listener);
    this.intents =
        new Intents(config.keyStore(), config.tenant(), config.intentRetention(), config.clock());
    this.endings = new Endings(config, intents, listener);
    this.budget = new RetryBudget(config.retryBudget());
    this.redaction = Redaction.ofApiKey(config.apiKey());
  }

  /** Returns the OkHttp client the SDK sends with (the caller's, with SDK-owned retries). */
  public okhttp3.OkHttpClient http() {
    return wire.http();
  }

  /** Returns the breaker's current state. */
  public dev.saferetry.event.BreakerState breakerState() {
    return Resilience.map(breaker.getState());
  }

  /** Returns the client's intents: claims, and the recovery operations of its tenant. */
  public Intents intents() {
    return intents;
  }

  /** Executes one call; see {@code SafeRetryClient#execute}. */
  public <Q, R> CallResult<R> execute(Operation<Q, R> op, Q body, RequestOptions options) {
    HttpUrl url =
        op.pathTemplate().indexOf('{') < 0
            ? fixedUrls.computeIfAbsent(
                op.pathTemplate(), t -> PreparedCall.expand(config.baseUrl(), t, Map.of()))
            : PreparedCall.expand(config.baseUrl(), op.pathTemplate(), options.pathParams());
    PreparedCall call = PreparedCall.of(config, op, url, body, options);
    Intents.Claim claim = Intents.Claim.NONE;
    if (op.carriesKey()) {
      String fingerprint = options.intentId() == null ? null : call.fingerprint();
      claim = intents.claim(op.name(), options, fingerprint);
    }
    call.bind(config, claim.key());
    CallState state =
        new CallState(op, options.intentId(), claim, redaction.withHeaders(options.headers()));
    return loop(call, state, op.responseType());
  }

  private <R> CallResult<R> loop(PreparedCall call, CallState s, Class<R> type) {
    Retry.AsyncContext<AttemptOutcome> ctx = retry.asyncContext();
    Instant deadline = config.clock().instant().plus(config.retryPolicy().deadline());
    Duration delayBefore = Duration.ZERO;
    for (int n = 1; ; n++) {
      boolean permitted = breaker.tryAcquirePermission();
      breakerStates.observe();
      if (!permitted) {
        throw endings.circuitOpen(s);
      }
      AttemptOutcome out = attempt(call, s, n, delayBefore, deadline);
      if (out.verdict() == Verdict.SUCCEEDED) {
        ctx.onComplete();
        budget.onSuccess();
        return endings.success(s, out, type);
      }
      if (out.verdict() == Verdict.FAIL) {
        throw endings.definitive(s, out);
      }
      long delayMs = ctx.onResult(out);
      Duration delay = Duration.ofMillis(Math.max(0, delayMs));
      SafeRetryException stop = whyStop(s, out, delayMs, delay, deadline);
      if (stop != null) {
        recordUnresolved(s, stop);
        throw stop;
      }
      listener.onRetryScheduled(
          new RetryScheduled(
              call.op.name(), s.claim.key(), n + 1, delay, out.retryAfter() != null));
      sleep(s, delay);
      delayBefore = delay;
    }
  }

  private SafeRetryException whyStop(
      CallState s, AttemptOutcome out, long delayMs, Duration delay, Instant deadline) {
    Duration hint = out.retryAfter();
    if (hint != null && hint.compareTo(config.retryPolicy().maxRetryAfter()) > 0) {
      return endings.exhausted(
          s,
          "server asked to wait " + hint.toSeconds() + " s, longer than the configured ceiling",
          hint);
    }
    if (delayMs < 0) {
      return endings.exhausted(
          s, "retries exhausted after " + s.attempts.size() + " attempts", hint);
    }
    if (breaker.getState() == CircuitBreaker.State.OPEN) {
      return endings.circuitOpen(s);
    }
    if (!config.clock().instant().plus(delay).isBefore(deadline)) {
      return endings.exhausted(
          s,
          "deadline of "
              + config.retryPolicy().deadline().toMillis()
              + " ms would pass before the next attempt",
          hint);
    }
    if (!budget.tryAcquireRetry()) {
      return endings.exhausted(s, "the client's retry budget is spent", hint);
    }
    return null;
  }

  private void sleep(CallState s, Duration delay) {
    try {
      config.sleeper().sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw endings.exhausted(s, "interrupted while waiting to retry", null);
    }
  }

  private AttemptOutcome attempt(
      PreparedCall call, CallState s, int n, Duration delayBefore, Instant deadline) {
    String requestId = PreparedCall.newRequestId(s.claim.key());
    listener.onAttemptStart(
        new AttemptStarted(call.op.name(), s.intentId, s.claim.key(), n, requestId));
    Duration remaining = Duration.between(config.clock().instant(), deadline);
    Wire.Sent sent =
        wire.send(
            call.forAttempt(requestId),
            remaining.isNegative() ? Duration.ofMillis(1) : remaining,
            s.redaction);
    Attempt attempt = Wire.attempt(n, requestId, sent, delayBefore);
    AttemptOutcome out = classify(attempt, sent);
    s.attempts.add(attempt);
    s.last = out;
    if (isLostAnswer(out)) {
      // Judged when the call ends (recordUnresolved): a retry usually resolves a lost answer.
      breaker.releasePermission();
    } else {
      Resilience.record(breaker, sent.duration().toNanos(), countsAsBreakerFailure(out));
      breakerStates.observe();
    }
    log(call, s, out);
    listener.onAttemptEnd(new AttemptFinished(call.op.name(), s.intentId, s.claim.key(), attempt));
    return out;
  }

  private AttemptOutcome classify(Attempt attempt, Wire.Sent sent) {
    if (sent.raw() == null) {
      Verdict v = config.classifier().classify(sent.failure());
      return new AttemptOutcome(attempt, null, null, false, sent.error(), v, null);
    }
    AttemptResponse response = sent.raw().response();
    Verdict v = config.classifier().classify(response);
    if (v != Verdict.SUCCEEDED) {
      Boolean override = RetryHints.shouldRetry(response, config.retryPolicy().shouldRetryHeader());
      if (override != null) {
        v = override ? Verdict.RETRY : Verdict.FAIL;
      }
    }
    Duration hint = v == Verdict.RETRY ? RetryHints.retryAfter(response, config.clock()) : null;
    return new AttemptOutcome(
        attempt, response, sent.raw().body(), sent.raw().oversized(), null, v, hint);
  }

  private static boolean countsAsBreakerFailure(AttemptOutcome out) {
    return out.response() == null || StandardRetryClassifier.isBreakerFailure(out.status());
  }

  /**
   * A retryable failure after the request may have reached the server (a lost or late answer:
   * reset, unexpected end, read or call timeout). It proves nothing about the server's health by
   * itself — a burst of them against a healthy server is exactly what retries with the same key are
   * for — so the breaker counts it only if the call ends without an answer.
   */
  private static boolean isLostAnswer(AttemptOutcome out) {
    return out.response() == null
        && out.verdict() == Verdict.RETRY
        && out.attempt().failure().mayHaveReachedServer();
  }

  /** Counts one failure for a call that ended after a lost answer that retries did not resolve. */
  private void recordUnresolved(CallState s, SafeRetryException stop) {
    if (s.last != null && isLostAnswer(s.last) && !(stop instanceof CircuitOpenException)) {
      Resilience.record(breaker, 0, true);
      breakerStates.observe();
    }
  }

  private void log(PreparedCall call, CallState s, AttemptOutcome out) {
    if (LOG.isDebugEnabled()) {
      Attempt a = out.attempt();
      LOG.debug(
          "{} {} attempt {}/{} -> {} in {} ms (request id {}, server request id {}, key {})",
          call.op.method(),
          call.op.pathTemplate(),
          a.number(),
          config.retryPolicy().maxAttempts(),
          a.failure() != null ? a.failure() : a.status(),
          a.duration().toMillis(),
          a.requestId(),
          a.serverRequestId(),
          s.claim.key());
    }
  }

  /** Mutable bookkeeping of one call; confined to the calling thread. */
  static final class CallState {
    final Operation<?, ?> op;
    final String intentId;
    final Intents.Claim claim;
    final Redaction redaction;
    final List<Attempt> attempts = new ArrayList<>();
    AttemptOutcome last;

    CallState(Operation<?, ?> op, String intentId, Intents.Claim claim, Redaction redaction) {
      this.op = op;
      this.intentId = intentId;
      this.claim = claim;
      this.redaction = redaction;
    }

    boolean anyAmbiguous() {
      return claim.priorPending()
          || attempts.stream()
              .anyMatch(a -> a.failure() == null || a.failure().mayHaveReachedServer());
    }
  }
}
