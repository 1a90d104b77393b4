package dev.saferetry;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.call.ResponseView;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.CallStarted;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentClaim;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.Redaction;
import dev.saferetry.internal.codec.ErrorBodies;
import io.github.resilience4j.retry.Retry;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call, from its prepared request to its ending. It owns the key (fixed once, by the claim,
 * before the first attempt), the attempts, the retry decisions and the ending — the result or the
 * one exception that describes it — and it reports every step to the listener.
 *
 * <p>The same steps run synchronously ({@link #execute()}: attempts and waits on the calling
 * thread) or asynchronously ({@link #start()}: each blocking step on the client's I/O executor,
 * waits on the sleeper's timer, holding no thread), so both paths give the same outcomes and the
 * same attempt history. Confined to one thread at a time; only {@link #cancel()} comes from
 * elsewhere.
 */
final class RealCall<R> {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /**
   * What follows an attempt that did not end the call (an ending is thrown): another attempt after
   * {@code delay}, or, when {@code delay} is null, success — the answer is read once resilience4j's
   * retry has counted it.
   *
   * @param existingResourceId the id the provider's "already created" conflict names, or null
   */
  record Step(Duration delay, String existingResourceId) {
    private static final Step SUCCEEDED = new Step(null, null);

    boolean waits() {
      return delay != null;
    }

    /** The wait in whole milliseconds, as resilience4j's interval function counts it. */
    long millis() {
      return delay.toMillis();
    }
  }

  // The longest time one attempt can be given: what the wire's nanosecond clock can count.
  private static final Duration LONGEST_ATTEMPT = Duration.ofNanos(Long.MAX_VALUE);

  private final ClientParts parts;
  private final Operation<?, R> op;
  private final Object body;
  private final RequestOptions options;
  private final String callId = newId("call_");
  private final Instant started;

  // The holder of an intent recorded earlier whose stored request this call sends, or null.
  private final IntentClaim held;

  private final List<Attempt> attempts = new ArrayList<>();
  private PreparedRequest request;
  private Intents.Claim claim = Intents.Claim.NONE;
  private Instant deadline;
  private AttemptResult last;

  private volatile boolean cancelled;
  private volatile Transport.Exchange inFlight;
  private volatile CompletableFuture<Void> waiting;
  private Future<R> future;

  // The wait resilience4j decided before the next attempt, for that attempt's history.
  private Duration delayBefore = Duration.ZERO;

  // The future of an asynchronous call: cancelling it cancels the call (its attempt in flight, or
  // its wait for the next one). Futures derived from it (thenApply, ...) are plain ones.
  private static final class Future<R> extends CompletableFuture<CallResult<R>> {
    private final RealCall<R> call;

    Future(RealCall<R> call) {
      this.call = call;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      call.cancel();
      return cancelled;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
      return new CompletableFuture<>();
    }
  }

  RealCall(
      ClientParts parts,
      Operation<?, R> op,
      Object body,
      RequestOptions options,
      PreparedRequest request) {
    this(parts, op, body, options, request, null);
  }

  /**
   * A call that sends the stored request of an intent {@code held} holds: its key fixed by the
   * holder's record, each attempt sent only while it still holds it, its outcome handed to it.
   */
  RealCall(
      ClientParts parts,
      Operation<?, R> op,
      Object body,
      RequestOptions options,
      PreparedRequest request,
      IntentClaim held) {
    this.held = held;
    this.parts = parts;
    this.op = op;
    this.body = body;
    this.options = options;
    this.request = request;
    this.started = parts.config().clock().instant();
    parts
        .listener()
        .onCallStart(new CallStarted(callId, op.name(), op.method(), options.intentId()));
  }

  /**
   * Runs the call on the calling thread. resilience4j's retry judges each attempt through its
   * non-blocking context; the call waits on the client's sleeper, since the retry's own blocking
   * runner sleeps through one JVM-wide function ({@code RetryImpl.sleepFunction}) that cannot be
   * given per client.
   */
  @SuppressWarnings("unchecked")
  CallResult<R> execute() {
    begin();
    Retry.AsyncContext<Step> retry = parts.retry().asyncContext();
    while (true) {
      Step step;
      try {
        step = attempt();
      } catch (SafeRetryException ending) {
        retry.onError(ending);
        throw ending;
      }
      long wait = retry.onResult(step);
      if (wait < 0) {
        retry.onComplete();
        return succeed(step.existingResourceId());
      }
      delayBefore = Duration.ofMillis(wait);
      try {
        parts.config().sleeper().sleep(delayBefore);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        cancelled = true;
      }
    }
  }

  /**
   * Starts the call on the client's I/O executor and returns its future: resilience4j's retry runs
   * the attempts ({@code Retry.decorateCompletionStage}), each on the I/O executor, and schedules
   * each wait on {@link Waits}, a timer that holds no thread.
   */
  CompletableFuture<CallResult<R>> start() {
    future = new Future<>(this);
    runOnIo(
        () -> {
          try {
            begin();
          } catch (SafeRetryException ending) {
            future.completeExceptionally(ending);
            return;
          }
          Retry.decorateCompletionStage(parts.retry(), new Waits(), this::attemptStage)
              .get()
              .whenComplete(
                  (step, ending) -> {
                    if (ending != null) {
                      future.completeExceptionally(ending);
                      return;
                    }
                    try {
                      future.complete(succeed(step.existingResourceId()));
                    } catch (RuntimeException unreadable) {
                      future.completeExceptionally(unreadable);
                    }
                  });
        });
    return future;
  }

  // One attempt as resilience4j's asynchronous runner takes it: a completed stage.
  private CompletableFuture<Step> attemptStage() {
    try {
      return CompletableFuture.completedFuture(attempt());
    } catch (SafeRetryException ending) {
      return CompletableFuture.failedFuture(ending);
    }
  }

  /**
   * Cancels the call: an attempt in flight fails at once, a wait ends, and no further attempt
   * starts. The intent is left as it is: pending when anything may have been sent.
   */
  void cancel() {
    cancelled = true;
    Transport.Exchange exchange = inFlight;
    if (exchange != null) {
      exchange.cancel();
    }
    CompletableFuture<Void> wait = waiting;
    if (wait != null) {
      wait.cancel(false);
    }
  }

  // Runs a task on the I/O executor; a client closed meanwhile (the executor refuses) ends the call
  // at its next step, as cancelled, on this thread.
  private void runOnIo(Runnable task) {
    Runnable guarded =
        () -> {
          try {
            task.run();
          } catch (RuntimeException | Error e) {
            future.completeExceptionally(e); // a bug must not leave the caller waiting
          }
        };
    try {
      parts.io().execute(guarded);
    } catch (RuntimeException rejected) {
      cancelled = true;
      guarded.run();
    }
  }

  // The scheduler resilience4j's asynchronous runner waits on: the client's sleeper, whose future
  // holds no thread (one JVM-wide timer by default, fake time in tests), then the next attempt on
  // the I/O executor. The wait is the call's, so that cancel() ends it at once; only what
  // Retry.decorateCompletionStage uses is supported.
  private final class Waits extends AbstractExecutorService implements ScheduledExecutorService {
    @Override
    public ScheduledFuture<?> schedule(Runnable next, long delay, TimeUnit unit) {
      delayBefore = Duration.of(delay, unit.toChronoUnit());
      CompletableFuture<Void> wait = parts.config().sleeper().after(delayBefore);
      waiting = wait;
      if (cancelled) {
        wait.cancel(false);
      }
      wait.whenComplete((done, failed) -> runOnIo(next));
      return new Pending(wait, delayBefore);
    }

    @Override
    public void execute(Runnable task) {
      runOnIo(task);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
      throw new UnsupportedOperationException("only schedule(Runnable, ...) is used");
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
        Runnable command, long initialDelay, long period, TimeUnit unit) {
      throw new UnsupportedOperationException("only schedule(Runnable, ...) is used");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
        Runnable command, long initialDelay, long delay, TimeUnit unit) {
      throw new UnsupportedOperationException("only schedule(Runnable, ...) is used");
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return false;
    }
  }

  // A wait as a ScheduledFuture: done when the sleeper's future is.
  private static final class Pending implements ScheduledFuture<Void> {
    private final CompletableFuture<Void> wait;
    private final Duration delay;

    Pending(CompletableFuture<Void> wait, Duration delay) {
      this.wait = wait;
      this.delay = delay;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return wait.isDone() ? 0 : unit.convert(delay);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return wait.cancel(mayInterruptIfRunning);
    }

    @Override
    public boolean isCancelled() {
      return wait.isCancelled();
    }

    @Override
    public boolean isDone() {
      return wait.isDone();
    }

    @Override
    public Void get() throws InterruptedException, ExecutionException {
      return wait.get();
    }

    @Override
    public Void get(long timeout, TimeUnit unit)
        throws InterruptedException, ExecutionException, TimeoutException {
      return wait.get(timeout, unit);
    }
  }

  // Fixes the key, recording the intent if the call names one. The deadline runs from here: the key
  // store's wait to record the intent counts against it. Throws SafeRetryException how the call
  // ended if it cannot go on: cancelled, or the intent cannot be claimed; nothing was sent
  private void begin() {
    if (cancelled) {
      throw end(Endings.cancelled(false, "the call was cancelled, or its client closed", trail()));
    }
    Duration deadline =
        options.deadline() != null ? options.deadline() : parts.config().retryPolicy().deadline();
    Instant deadlineAt = later(parts.config().clock().instant(), deadline);
    if (op.carriesKey()) {
      try {
        claim =
            held != null
                ? parts.intents().claimHeld(held.intent())
                : parts
                    .intents()
                    .claim(op.name(), options, request.key(), request.fingerprint(), deadline);
      } catch (SafeRetryException e) {
        throw end(e);
      } catch (KeyStoreException e) {
        throw end(
            Endings.unknown(
                Reason.KEY_STORE_FAILED,
                "the key store could not confirm the intent's state; nothing was sent by this call",
                null,
                new Endings.Trail(options.idempotencyKey(), options.intentId(), List.of()),
                e));
      }
      if (!claim.key().equals(request.key())) {
        request = parts.requests().withKey(request, body, options, claim.key());
      }
    }
    this.deadline = deadlineAt;
  }

  // Sends one attempt (if the call is still on and the breaker allows) and decides what follows.
  // Throws SafeRetryException how the call ended, when it ends without success
  private Step attempt() {
    if (cancelled) {
      throw end(
          Endings.cancelled(
              anyAmbiguous(), "the call was cancelled, or its client closed", trail()));
    }
    if (!parts.breaker().tryAcquire()) {
      throw end(Endings.circuitOpen(anyAmbiguous(), trail()));
    }
    if (held != null && !held.stillOwned()) {
      cancelled = true;
      parts.breaker().release(); // says nothing about the server
      throw end(
          Endings.cancelled(
              anyAmbiguous(),
              "the call's hold on its intent was lost; nothing more sent",
              trail()));
    }
    int n = attempts.size() + 1;
    AttemptStarted start =
        new AttemptStarted(callId, op.name(), options.intentId(), claim.key(), n, newRequestId());
    parts.listener().onAttemptStart(start);
    Transport.Exchange exchange = parts.transport().exchange(request.forAttempt(start));
    inFlight = exchange;
    if (cancelled) {
      exchange.cancel(); // cancel() ran before the exchange was visible to it
    }
    Transport.Sent sent = exchange.send(remaining(), request.redaction());
    inFlight = null;
    Attempt attempt = Transport.attempt(n, start.requestId(), sent, delayBefore);
    boolean replayed =
        sent.received() != null
            && op.carriesKey()
            && parts.config().rules().isReplay(sent.received().response());
    last = AttemptResult.of(attempt, sent, replayed);
    attempts.add(attempt);
    log(last);
    parts
        .listener()
        .onAttemptEnd(
            new AttemptFinished(callId, op.name(), options.intentId(), claim.key(), attempt));
    if (cancelled) {
      parts.breaker().release(); // says nothing about the server
      throw end(
          Endings.cancelled(
              anyAmbiguous(), "the call was cancelled, or its client closed", trail()));
    }
    parts.breaker().record(last, sent.duration().toNanos());
    Decision.Rules decisionRules = parts.decisionRules();
    Decision.Next next = Decision.decide(facts(parts.budget().hasToken()), decisionRules);
    if (next instanceof Decision.Retry && !parts.budget().tryAcquireRetry()) {
      next = Decision.decide(facts(false), decisionRules); // another call took the last token
    }
    return follow(next);
  }

  // What this call knows for the decision after its last attempt.
  private Decision.Facts facts(boolean budgetLeft) {
    int maxAttempts =
        options.maxAttempts() > 0
            ? options.maxAttempts()
            : parts.config().retryPolicy().maxAttempts();
    return new Decision.Facts(
        n(),
        maxAttempts,
        last.response(),
        last.failure(),
        op.carriesKey(),
        earlierAttemptMayHaveExecuted(),
        anyAmbiguous(),
        parts.config().clock().instant(),
        deadline,
        parts.breaker().isOpen(),
        budgetLeft);
  }

  // Acts on the decision: a step to take next, or the ending, thrown.
  private Step follow(Decision.Next next) {
    if (next instanceof Decision.Succeed s) {
      parts.budget().onSuccess();
      return s.existingResourceId() == null
          ? Step.SUCCEEDED
          : new Step(null, s.existingResourceId());
    }
    if (next instanceof Decision.Retry r) {
      parts
          .listener()
          .onRetryScheduled(
              new RetryScheduled(
                  callId, op.name(), claim.key(), n() + 1, r.delay(), r.serverHint()));
      return new Step(r.delay(), null);
    }
    Decision.End e = (Decision.End) next;
    SafeRetryException ending = ending(e);
    if (e.lostAnswer()) {
      parts.breaker().callEndedWithoutAnswer(ending);
    }
    throw end(ending);
  }

  private SafeRetryException ending(Decision.End e) {
    if (e.reason() == Reason.REJECTED || e.reason() == Reason.KEY_REUSED) {
      complete(IntentState.FAILED, last.status(), null);
      return Endings.rejected(
          last,
          e.reason() == Reason.KEY_REUSED,
          parts.config().mapper(),
          request.redaction(),
          trail());
    }
    if (e.reason().outcome() == Outcome.FAILED) {
      return Endings.failed(e.reason(), e.why(), trail(), last.error());
    }
    return Endings.unknown(e.reason(), e.why(), e.retryAfter(), trail(), last.error());
  }

  // Reads the successful answer and records the intent. Throws SafeRetryException SUCCEEDED with a
  // body that could not be read
  private CallResult<R> succeed(String existingResourceId) {
    AttemptResult out = last;
    int status = out.status();
    ClientConfig c = parts.config();
    // One view of the answer, for the result and for the trail of an unreadable body alike.
    ResponseView view = view(out);
    SuccessBody<R> body;
    try {
      body =
          SuccessBody.read(
              out,
              existingResourceId,
              c,
              parts.reader(),
              op.responseType(),
              claim.record() != null,
              trail(view));
    } catch (SafeRetryException unreadable) {
      complete(IntentState.SUCCEEDED, status, null);
      throw end(unreadable);
    }
    complete(IntentState.SUCCEEDED, status, body.resourceId());
    finished(Outcome.SUCCEEDED, null);
    return new CallResult<>(
        body.value(),
        status,
        claim.key(),
        options.intentId(),
        view.replayed(),
        attempts,
        view,
        existingResourceId);
  }

  private void complete(IntentState state, int status, String resourceId) {
    if (held != null) {
      parts.intents().completeHeld(held, claim, state, status, resourceId, op.name());
      return;
    }
    Duration left = Duration.between(parts.config().clock().instant(), deadline);
    parts
        .intents()
        .complete(
            claim, state, status, resourceId, op.name(), left.isNegative() ? Duration.ZERO : left);
  }

  // Ends with an exception: logs an unknown outcome, reports the end; returns it to throw.
  private SafeRetryException end(SafeRetryException e) {
    if (e.reason().outcome() == Outcome.UNKNOWN) {
      Reason unknown = e.reason();
      LOG.warn(
          "outcome unknown for {} ({}, idempotency key {}, {} attempts): {}",
          op.name(),
          unknown,
          e.key(),
          attempts.size(),
          unknown.mustReconcile()
              ? "reconcile the intent with the provider"
              : "retry the same intent");
    }
    finished(e.outcome(), e);
    return e;
  }

  private void finished(Outcome outcome, SafeRetryException e) {
    Duration took = Duration.between(started, parts.config().clock().instant());
    parts
        .listener()
        .onCallEnd(
            new CallFinished(
                callId,
                op.name(),
                options.intentId(),
                e != null ? e.key() : claim.key(),
                outcome,
                e == null ? null : e.reason(),
                last == null ? 0 : last.status(),
                attempts.size(),
                took));
  }

  // Whether anything of this intent may have reached the server: an earlier call of the intent left
  // it pending, or an attempt got an answer or failed after handing the request over.
  private boolean anyAmbiguous() {
    return claim.priorPending()
        || attempts.stream()
            .anyMatch(a -> a.failure() == null || a.failure().mayHaveReachedServer());
  }

  // Whether an attempt before the last one may have been executed: a failure after the request may
  // have reached the server, or an answer that does not prove the request had no effect (a
  // redirect, 408, 409, 429 or a 5xx).
  private boolean earlierAttemptMayHaveExecuted() {
    for (Attempt a : attempts.subList(0, attempts.size() - 1)) {
      if (Decision.mayHaveExecuted(a.failure(), a.status())) {
        return true;
      }
    }
    return false;
  }

  private Endings.Trail trail() {
    return trail(view(last));
  }

  private Endings.Trail trail(ResponseView lastAnswer) {
    return new Endings.Trail(claim.key(), options.intentId(), attempts, lastAnswer);
  }

  // The answer of an attempt as the caller sees it, or null after a transport failure. A credential
  // the server echoes is masked in all of it, headers and kept body too, by the one rule that masks
  // messages, error fields and request ids.
  private ResponseView view(AttemptResult out) {
    if (out == null || out.response() == null) {
      return null;
    }
    ResponseRules rules = parts.config().rules();
    Redaction redaction = request.redaction();
    String requestId = out.attempt().serverRequestId();
    String errorBody = out.response().errorBody();
    if (requestId == null && rules.errorRequestIdField() != null && !errorBody.isEmpty()) {
      requestId =
          ErrorBodies.text(errorBody, rules.errorRequestIdField())
              .map(redaction::printableMasked)
              .orElse(null);
    }
    return new ResponseView(
        out.status(),
        redaction.mask(out.response().headers()),
        requestId,
        rules.isReplay(out.response()),
        options.keepBody() ? redaction.mask(out.body()) : null);
  }

  // now + d, or the end of time when that is beyond what an instant can hold.
  private static Instant later(Instant now, Duration d) {
    try {
      return now.plus(d);
    } catch (DateTimeException | ArithmeticException beyondTime) {
      return Instant.MAX;
    }
  }

  private int n() {
    return attempts.size();
  }

  // What this attempt may take: what is left of the deadline, at most the attempt timeout.
  private Duration remaining() {
    Duration left = Duration.between(parts.config().clock().instant(), deadline);
    Duration perAttempt = options.attemptTimeout();
    if (perAttempt != null && perAttempt.compareTo(left) < 0) {
      left = perAttempt;
    }
    if (left.compareTo(LONGEST_ATTEMPT) > 0) {
      return LONGEST_ATTEMPT; // a deadline beyond the end of time: the wire counts nanoseconds
    }
    return left.isNegative() ? Duration.ofMillis(1) : left;
  }

  private void log(AttemptResult out) {
    if (LOG.isDebugEnabled()) {
      Attempt a = out.attempt();
      LOG.debug(
          "{} {} attempt {}/{} -> {} in {} ms (request id {}, server request id {}, key {})",
          op.method(),
          op.pathTemplate(),
          a.number(),
          parts.config().retryPolicy().maxAttempts(),
          a.failure() != null ? a.failure() : a.status(),
          a.duration().toMillis(),
          a.requestId(),
          a.serverRequestId(),
          claim.key());
    }
  }

  // A fresh request id; never equal to the call's key.
  private String newRequestId() {
    IdempotencyKey key = claim.key();
    String id = newId("req_");
    return key != null && id.equals(key.value()) ? newRequestId() : id;
  }

  private static String newId(String prefix) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return prefix
        + Long.toHexString(r.nextLong() | Long.MIN_VALUE)
        + Long.toHexString(r.nextLong() | Long.MIN_VALUE);
  }
}
