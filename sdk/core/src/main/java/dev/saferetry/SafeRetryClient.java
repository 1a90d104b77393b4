package dev.saferetry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.call.ResponseView;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.idempotency.IntentClaim;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.StoredIntent;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.pagination.PageStyle;
import dev.saferetry.pagination.PagedIterable;
import dev.saferetry.resilience.RetryPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Executes {@link Operation}s against one API so that a retry can never cause a second side effect:
 * one idempotency key per intent, minted before the first attempt and sent unchanged on every
 * retry; retries only of what is safe to retry, with backoff, a deadline and a circuit breaker;
 * three honest outcomes (succeeded, failed, unknown).
 *
 * <pre>{@code
 * SafeRetryClient client = SafeRetryClient.builder()
 *     .baseUrl("https://api.example.com")
 *     .apiKey(System.getenv("PAYMENTS_API_KEY"))
 *     .build();
 * CallResult<Charge> charge = client.execute(CREATE_CHARGE, params,
 *     RequestOptions.none().withIntentId("order-123/charge"));
 * }</pre>
 *
 * <p>A call that does not return a result throws a {@link dev.saferetry.error.SafeRetryException}
 * of one of three branches, one per outcome — {@link dev.saferetry.error.CallFailedException}
 * (FAILED), {@link dev.saferetry.error.OutcomeUnknownException} (UNKNOWN), {@link
 * dev.saferetry.error.ResponseBodyException} (SUCCEEDED, body unreadable) — each carrying the key,
 * the attempt history and a typed reason. Create one client per API and share it: it holds a
 * connection pool, a circuit breaker, a retry budget and — if it created them — threads, released
 * by {@link #close()}.
 *
 * <p>This class is thread-safe.
 */
public final class SafeRetryClient implements AutoCloseable {
  private final ClientCore core;

  SafeRetryClient(ClientCore core) {
    this.core = core;
  }

  /** The client's machinery; for the SDK's own tests in this package. */
  ClientCore core() {
    return core;
  }

  /** {@return a builder with all defaults} */
  public static SafeRetryClientBuilder builder() {
    return new SafeRetryClientBuilder();
  }

  /**
   * Executes an operation and returns its typed result.
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param op the operation
   * @param body the request body, or {@code null} when the operation sends none
   * @param options per-call options: the caller's key or intent id, path variables, headers; {@link
   *     RequestOptions#none()} for none
   * @return the result of the successful attempt, with the key and every attempt
   * @throws dev.saferetry.error.CallFailedException when the call provably had no effect (FAILED)
   * @throws dev.saferetry.error.OutcomeUnknownException when the effect may exist (UNKNOWN): retry
   *     the same intent later; this includes a key store that cannot record the intent before
   *     sending (reason {@code KEY_STORE_FAILED}, nothing sent by this call)
   * @throws dev.saferetry.error.ResponseBodyException when the server answered 2xx but the body
   *     could not be read (SUCCEEDED)
   * @throws IllegalArgumentException for a bad key, intent id, header, body, or a missing, empty,
   *     {@code .} or {@code ..} path variable, or an intent {@linkplain RequestOptions#withRedrive
   *     re-driven} through a client of another tenant or as another operation: before anything is
   *     recorded or sent
   */
  public <Q, R> CallResult<R> execute(Operation<Q, R> op, Q body, RequestOptions options) {
    return core.execute(op, body, Objects.requireNonNull(options, "options"));
  }

  /**
   * Executes an operation as its own intent with a fresh key; see {@link #execute(Operation,
   * Object, RequestOptions)}.
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param op the operation
   * @param body the request body, or {@code null} when the operation sends none
   * @return the result of the successful attempt
   */
  public <Q, R> CallResult<R> execute(Operation<Q, R> op, Q body) {
    return execute(op, body, RequestOptions.none());
  }

  /**
   * {@return every item of a list, page after page, fetched lazily as the iteration advances: each
   * page is one call with the normal retry logic (deadline, backoff, breaker, budget), so a lost
   * answer in the middle is retried and the walk goes on without skipping or repeating an item} A
   * page that cannot be fetched throws the call's exception from the iterator's {@code hasNext} or
   * {@code next}; iterating again starts over at the first page.
   *
   * <pre>{@code
   * Operation<Void, StripeList<Charge>> LIST_CHARGES =
   *     Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});
   * for (Charge charge : client.paginate(LIST_CHARGES, StripeList.style(Charge::id),
   *     RequestOptions.none().withQueryParam("limit", 100))) {
   *   ...
   * }
   * }</pre>
   *
   * <p>A style's next-page link is followed only within the client's base URL (same origin, under
   * its path), since it is sent with the client's credentials. A walk whose next page would repeat
   * an earlier request (a cursor cycle), go beyond {@link PagedIterable#maxPages(int) the page
   * limit} (default 10,000), or cannot be continued from (a last item without an id) ends with a
   * {@link dev.saferetry.pagination.PaginationException} naming the page.
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param op the list operation
   * @param style how items and the next page are found in a page
   * @param options the first page's options (query, headers, overrides); no intent id or key
   * @throws IllegalArgumentException if the options name an intent or a key
   */
  public <P, T> PagedIterable<P, T> paginate(
      Operation<Void, P> op, PageStyle<P, T> style, RequestOptions options) {
    return core.paginate(op, style, Objects.requireNonNull(options, "options"));
  }

  /**
   * {@return every item of a list, as {@link #paginate(Operation, PageStyle, RequestOptions)} with
   * no options}
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param op the list operation
   * @param style how items and the next page are found in a page
   */
  public <P, T> PagedIterable<P, T> paginate(Operation<Void, P> op, PageStyle<P, T> style) {
    return paginate(op, style, RequestOptions.none());
  }

  /**
   * As {@link #paginate}, but each page is the {@link CallResult} of its fetch — attempts, server
   * request ids, the {@link ResponseView} — for callers that log or audit every page.
   *
   * <pre>{@code
   * for (CallResult<StripeList<Charge>> page :
   *     client.paginateResults(LIST_CHARGES, StripeList.style(Charge::id), options).pages()) {
   *   log.info("{} charges, request id {}", page.value().data().size(), page.serverRequestId());
   * }
   * }</pre>
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param op the list operation
   * @param style how items and the next page are found in a page
   * @param options the first page's options; no intent id or key
   * @return the items, lazily; {@code pages()} gives each page's result
   * @throws IllegalArgumentException if the options name an intent or a key
   */
  public <P, T> PagedIterable<CallResult<P>, T> paginateResults(
      Operation<Void, P> op, PageStyle<P, T> style, RequestOptions options) {
    return core.paginateResults(op, style, Objects.requireNonNull(options, "options"));
  }

  /**
   * {@return every item of a list and each page's result, as {@link #paginateResults(Operation,
   * PageStyle, RequestOptions)} with no options}
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param op the list operation
   * @param style how items and the next page are found in a page
   */
  public <P, T> PagedIterable<CallResult<P>, T> paginateResults(
      Operation<Void, P> op, PageStyle<P, T> style) {
    return paginateResults(op, style, RequestOptions.none());
  }

  /**
   * Executes an operation asynchronously, with exactly the outcomes, attempts and events of {@link
   * #execute}. The future fails with a {@link CompletionException} (on {@code join}) whose cause is
   * the exception {@code execute} would have thrown; a request that cannot be sent as given fails
   * it at once, before anything is recorded.
   *
   * <p>No thread waits for the call: its blocking work (recording the intent, each attempt's I/O)
   * runs on the client's {@linkplain SafeRetryClientBuilder#asyncExecutor async executor} — on JDK
   * 21 and newer a virtual thread per running call, at most {@linkplain
   * SafeRetryClientBuilder#asyncConcurrency a bounded number} at once, the others waiting in FIFO
   * order — and waits between attempts run on a timer.
   *
   * <p>Cancelling the returned future cancels the call: an attempt in flight is aborted and no
   * further one starts. The intent is left pending, so a later call of the same intent reuses its
   * key; the listener sees the call end with reason {@code CANCELLED_AFTER_SEND} (outcome UNKNOWN)
   * if anything may have been sent, {@code CANCELLED} (FAILED) otherwise.
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param op the operation
   * @param body the request body, or {@code null} when the operation sends none
   * @param options per-call options; {@link RequestOptions#none()} for none
   * @return the future result
   */
  public <Q, R> CompletableFuture<CallResult<R>> executeAsync(
      Operation<Q, R> op, Q body, RequestOptions options) {
    return core.executeAsync(op, body, Objects.requireNonNull(options, "options"));
  }

  /**
   * Executes an operation asynchronously as its own intent with a fresh key; see {@link
   * #executeAsync(Operation, Object, RequestOptions)}.
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param op the operation
   * @param body the request body, or {@code null} when the operation sends none
   * @return the future result
   */
  public <Q, R> CompletableFuture<CallResult<R>> executeAsync(Operation<Q, R> op, Q body) {
    return executeAsync(op, body, RequestOptions.none());
  }

  /**
   * {@return this client's tenant's intents whose outcome is unknown — recorded before sending and
   * never completed — oldest first} After a restart with a durable store, re-drive each through
   * this client with {@link RequestOptions#withRedrive} and the same payload (the recorded key is
   * reused), or reconcile it with the provider and {@link #abandonIntent(IntentRecord) abandon} it.
   *
   * <pre>{@code
   * for (IntentRecord intent : client.pendingIntents()) {
   *   Order order = orders.byIntentId(intent.intentId());
   *   client.execute(CREATE_CHARGE, order.chargeParams(),
   *       RequestOptions.none().withRedrive(intent));
   * }
   * }</pre>
   *
   * <p>Only the client's own tenant is listed, so that every listed intent can be re-driven or
   * abandoned through this client. A store shared by several tenants lists all of them through
   * {@link KeyStore#pending()}.
   *
   * @throws dev.saferetry.idempotency.KeyStoreException if the store cannot be read
   */
  public List<IntentRecord> pendingIntents() {
    return core.pendingIntents();
  }

  /**
   * Forgets a listed intent, so its next call mints a new key. Use only after reconciling its
   * outcome with the provider. Nothing is removed if the store holds the intent with another key
   * than the listed one (it was recorded again since: that is not the intent you reconciled).
   *
   * @param intent a record of this client's tenant, e.g. from {@link #pendingIntents()}
   * @return whether the intent was removed
   * @throws IllegalArgumentException if the intent belongs to another tenant
   * @throws dev.saferetry.idempotency.KeyStoreException if the removal could not be made durable
   * @throws dev.saferetry.idempotency.IntentRefusedException if the store refuses: an outbox holds
   *     the intent (queued, parked, or abandoned by an operator), which only its operator resolves
   */
  public boolean abandonIntent(IntentRecord intent) {
    return core.abandon(Objects.requireNonNull(intent, "intent"));
  }

  /**
   * Forgets this client's intent {@code intentId} of operation {@code op}, so its next call mints a
   * new key. Use only after reconciling its outcome with the provider.
   *
   * @param op the operation the intent belongs to
   * @param intentId the intent id
   * @return whether an intent was removed
   * @throws IllegalArgumentException if the intent id is not acceptable
   * @throws dev.saferetry.idempotency.KeyStoreException if the removal could not be made durable
   * @throws dev.saferetry.idempotency.IntentRefusedException if the store refuses: an outbox holds
   *     the intent (queued, parked, or abandoned by an operator), which only its operator resolves
   */
  public boolean abandonIntent(Operation<?, ?> op, String intentId) {
    Objects.requireNonNull(op, "op");
    return core.abandon(op, intentId);
  }

  /** {@return the key store this client records intents in} */
  public KeyStore keyStore() {
    return core.config().keyStore();
  }

  /**
   * {@return the resilience4j {@link Retry} told of every retry decision of this client's calls,
   * for its events and metrics: {@code onRetry} with the wait before each retry, {@code onSuccess}
   * for a call that succeeded after retries, {@code onError} when retries stopped (attempts,
   * deadline, budget, {@code Retry-After} ceiling, breaker), {@code onIgnoredError} for an answer
   * that ends the call at once} The SDK decides; do not call its {@code execute} methods yourself.
   *
   * <pre>{@code
   * client.retry().getEventPublisher().onRetry(e -> log.info("retry in {}", e.getWaitInterval()));
   * }</pre>
   */
  public Retry retry() {
    return core.retry();
  }

  /**
   * {@return the resilience4j {@link CircuitBreaker} every attempt of this client asks for a
   * permission and reports to (shared with clients derived with the same base URL, breaker policy
   * and clock)} Read its state with {@code getState()}, subscribe to its events (state changes
   * included), or add it to your own {@code CircuitBreakerRegistry} to export its metrics; leave
   * its state to the SDK.
   *
   * <pre>{@code
   * client.circuitBreaker().getEventPublisher()
   *     .onStateTransition(e -> log.warn("breaker {}", e.getStateTransition()));
   * }</pre>
   */
  public CircuitBreaker circuitBreaker() {
    return core.circuitBreaker();
  }

  /**
   * Asks the provider, through {@code reconciler}, what became of an intent whose outcome is
   * unknown — one that ended UNKNOWN, outlived its key's retention while pending, or was held by
   * the outbox relay — and records what the answer proves: a found resource completes the intent in
   * the key store (status 0). When the finding is {@link Reconciliation#nothingExists() nothing
   * exists} and nothing can still send the intent with its old key (no call of it is running),
   * {@link #abandonIntent(IntentRecord)} lets the next call of the intent id record it again with a
   * new key; an intent an outbox holds is resolved through its operator instead ({@code
   * OutboxAdmin.requeueWithNewKey}, which reconciles and records the new key). A lookup that fails
   * is {@link Reconciliation#unresolved unresolved}.
   *
   * @param intent the intent, as listed ({@link #pendingIntents()}, an outbox's held intents)
   * @param reconciler the lookup for the intent's operation
   * @return what the provider's answer proves
   * @throws IllegalArgumentException if the intent belongs to another tenant than this client's
   */
  public Reconciliation reconcile(IntentRecord intent, Reconciler reconciler) {
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(reconciler, "reconciler");
    core.checkTenant(intent);
    Reconciliation found;
    try {
      found = Objects.requireNonNull(reconciler.reconcile(intent, this), "reconciliation");
    } catch (SafeRetryException e) {
      found =
          Reconciliation.unresolved("the lookup failed: " + e.outcome() + " (" + e.reason() + ")");
    }
    core.recordReconciled(intent, found);
    return found;
  }

  /**
   * Prepares a call for sending later (by an outbox's relay), exactly as {@link #execute} would
   * prepare it — validated, encoded, the caller's key or a fresh one, the fingerprint — without
   * recording or sending anything. Store the result's request with its intent; a later {@link
   * #send} of it, or an {@code execute} of the same call, sends the same bytes with the same key,
   * in the same place.
   *
   * <p>The request holds this client's default headers (an API version) as they are now and the
   * call's own headers, and never a credential or anything else this client knows to be secret:
   * {@link StoredRequest} says what is left out and what is refused. Whoever sends it adds their
   * own credentials.
   *
   * @param <Q> the request body type
   * @param op the operation; it must carry an idempotency key
   * @param body the request body, or {@code null} when the operation sends none
   * @param options the call's options; they must name an intent id and no per-call API key
   * @return the pending intent and the exact request to store with it
   * @throws IllegalArgumentException if the call names no intent, carries a credential header or a
   *     per-call API key, carries one of the client's secrets anywhere, or cannot be sent as given;
   *     the message names the header, parameter or part, never its value
   */
  public <Q> StoredIntent prepare(Operation<Q, ?> op, Q body, RequestOptions options) {
    return core.prepare(op, body, Objects.requireNonNull(options, "options"));
  }

  /**
   * Sends a stored request of an intent recorded earlier and held by {@code claim}, through the
   * same steps as {@link #execute} — breaker, retries, budget, deadline, listener — with the
   * intent's key on every attempt, placed where the stored request says (whatever this client does
   * with its own calls), and the stored bytes. This client adds its own credentials, and its base
   * URL's query before the stored target's; no stored header replaces them. The key store is not
   * written: the claim is asked before each attempt whether it still holds the intent (the call
   * stops, as cancelled, when it does not) and is handed the definitive outcome to record.
   *
   * @param request the stored request, as {@link #prepare} made it
   * @param claim the holder of the pending intent the request belongs to, of this client's tenant
   * @return the result of the successful attempt (the body as JSON)
   * @throws dev.saferetry.error.SafeRetryException how the call ended otherwise, as {@link
   *     #execute} would; an intent past its key's retention is not sent (UNKNOWN, {@code
   *     INTENT_EXPIRED})
   * @throws IllegalArgumentException before anything is sent, if the intent is not pending or of
   *     another tenant, or the request cannot be sent exactly as stored through this client: its
   *     target leaves the base URL after normalisation, a stored header or the key's header is one
   *     this client sets itself (its credential, its per-attempt headers), or a body that should
   *     carry the key does not carry exactly the intent's key
   */
  public CallResult<JsonNode> send(StoredRequest request, IntentClaim claim) {
    return core.send(request, Objects.requireNonNull(claim, "claim"));
  }

  /**
   * {@return the retry policy of this client's calls} Its {@link RetryPolicy#deadline()} bounds how
   * long one call (every attempt and wait, an attempt in flight cancelled at it) lasts: an outbox
   * relay's lease must outlast it.
   */
  public RetryPolicy retryPolicy() {
    return core.config().retryPolicy();
  }

  /** {@return the tenant this client records its intents under} */
  public String tenant() {
    return core.config().tenant();
  }

  /**
   * {@return a builder holding this client's settings} The client it builds shares with this one
   * every part whose settings it does not change — the connection pool and dispatcher, the circuit
   * breaker and the retry budget (same base URL and policies), the async executor — and always the
   * key store and the listener, unless set anew; see {@link SafeRetryClientBuilder}.
   */
  public SafeRetryClientBuilder newBuilder() {
    return new SafeRetryClientBuilder(core);
  }

  /**
   * Releases this client's hold on what the SDK created (its OkHttp dispatcher and pool, its async
   * executor): they are freed when the last client sharing them is closed. A caller-supplied OkHttp
   * client or executor and the key store are left open. Idempotent.
   */
  @Override
  public void close() {
    core.close();
  }

  @Override
  public String toString() {
    return "SafeRetryClient[" + core.config() + "]";
  }
}
