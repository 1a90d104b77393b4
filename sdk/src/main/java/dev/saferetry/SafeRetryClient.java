package dev.saferetry;

import dev.saferetry.event.BreakerState;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.CallExecutor;
import dev.saferetry.internal.ClientConfig;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

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
 *     RequestOptions.builder().intentId("order-123/charge").build());
 * }</pre>
 *
 * <p>Failures are thrown as subclasses of {@link dev.saferetry.error.SafeRetryException}; each
 * carries the key and the attempt history. Create one client per API and share it: it holds a
 * connection pool, a circuit breaker and — if it created them — threads, released by {@link
 * #close()}.
 *
 * <p>This class is thread-safe.
 */
public final class SafeRetryClient implements AutoCloseable {
  private final ClientConfig config;
  private final CallExecutor executor;
  private final ExecutorService ownedAsyncExecutor;

  SafeRetryClient(ClientConfig config, ExecutorService ownedAsyncExecutor) {
    this.config = config;
    this.executor = new CallExecutor(config);
    this.ownedAsyncExecutor = ownedAsyncExecutor;
  }

  /** Returns a builder with all defaults. */
  public static SafeRetryClientBuilder builder() {
    return new SafeRetryClientBuilder();
  }

  /**
   * Executes an operation and returns its typed result.
   *
   * @param op the operation
   * @param body the request body ({@code null} for none)
   * @param options per-call options: the caller's key or intent id, path variables, headers
   * @return the result of the successful attempt, with the key and every attempt
   * @throws dev.saferetry.error.SafeRetryException when the call did not succeed; see its
   *     subclasses
   * @throws IllegalArgumentException for a bad key, intent id, header, or a missing, empty, {@code
   *     .} or {@code ..} path variable, or an intent {@linkplain RequestOptions.Builder#redrive
   *     re-driven} through a client of another tenant or as another operation: before anything is
   *     recorded or sent
   * @throws dev.saferetry.idempotency.KeyStoreException if the key store cannot record the intent
   *     (nothing is sent then). Once the server has answered, the store can no longer turn the
   *     answer into an error: a completion it cannot record is logged at WARN with the key and the
   *     intent stays pending, so that a re-drive replays it with the same key.
   */
  public <Q, R> CallResult<R> execute(Operation<Q, R> op, Q body, RequestOptions options) {
    return executor.execute(op, body, options == null ? RequestOptions.none() : options);
  }

  /** Executes an operation as its own intent with a fresh key; see {@link #execute}. */
  public <Q, R> CallResult<R> execute(Operation<Q, R> op, Q body) {
    return execute(op, body, RequestOptions.none());
  }

  /**
   * Executes an operation on the client's async executor, with exactly the semantics of {@link
   * #execute}. The future fails with a {@link CompletionException} whose cause is the exception
   * {@code execute} would have thrown. The client's own executor runs at most {@link
   * SafeRetryClientBuilder#asyncThreads} calls at once; the others wait in FIFO order.
   */
  public <Q, R> CompletableFuture<CallResult<R>> executeAsync(
      Operation<Q, R> op, Q body, RequestOptions options) {
    return CompletableFuture.supplyAsync(() -> execute(op, body, options), config.asyncExecutor());
  }

  /**
   * Returns this client's tenant's intents whose outcome is unknown — recorded before sending and
   * never completed — oldest first. After a restart with a durable store, re-drive each through
   * this client with {@link RequestOptions.Builder#redrive} and the same payload (the recorded key
   * is reused), or reconcile it with the provider and {@link #abandonIntent(IntentRecord) abandon}
   * it.
   *
   * <pre>{@code
   * for (IntentRecord intent : client.pendingIntents()) {
   *   Order order = orders.byIntentId(intent.intentId());
   *   client.execute(CREATE_CHARGE, order.chargeParams(),
   *       RequestOptions.builder().redrive(intent).build());
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
    return executor.intents().pending();
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
   */
  public boolean abandonIntent(IntentRecord intent) {
    return executor.intents().abandon(Objects.requireNonNull(intent, "intent"));
  }

  /**
   * Forgets this client's intent {@code intentId} of operation {@code op}, so its next call mints a
   * new key. Use only after reconciling its outcome with the provider.
   *
   * @return whether an intent was removed
   * @throws IllegalArgumentException if the intent id is not acceptable
   * @throws dev.saferetry.idempotency.KeyStoreException if the removal could not be made durable
   */
  public boolean abandonIntent(Operation<?, ?> op, String intentId) {
    Objects.requireNonNull(op, "op");
    return executor.intents().abandon(op.name(), intentId);
  }

  /** Returns the key store this client records intents in. */
  public KeyStore keyStore() {
    return config.keyStore();
  }

  /** Returns the circuit breaker's current state. */
  public BreakerState breakerState() {
    return executor.breakerState();
  }

  /** Returns the builder's settings as a new builder, sharing the OkHttp client and store. */
  public SafeRetryClientBuilder newBuilder() {
    return new SafeRetryClientBuilder(config);
  }

  /**
   * Releases what the client created itself: its OkHttp dispatcher and pool and its async threads.
   * A caller-supplied OkHttp client and the key store are left open.
   */
  @Override
  public void close() {
    if (ownedAsyncExecutor != null) {
      ownedAsyncExecutor.shutdown();
    }
    if (config.ownsHttpClient()) {
      executor.http().dispatcher().executorService().shutdown();
      executor.http().connectionPool().evictAll();
    }
  }

  @Override
  public String toString() {
    return "SafeRetryClient[" + config + "]";
  }
}
