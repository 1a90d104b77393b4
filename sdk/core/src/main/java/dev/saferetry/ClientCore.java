package dev.saferetry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.IntentClaim;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.StoredIntent;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.internal.Redaction;
import dev.saferetry.internal.ResponseReader;
import dev.saferetry.internal.codec.Links;
import dev.saferetry.internal.storedrequest.StoredHeaders;
import dev.saferetry.internal.storedrequest.StoredSecrets;
import dev.saferetry.pagination.PageRequest;
import dev.saferetry.pagination.PageStyle;
import dev.saferetry.pagination.PagedIterable;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * What a {@code SafeRetryClient} is made of: its settings and the parts every call uses — the
 * request factory, the intents, the wire, the breaker, the retry decision and budget, the I/O
 * executor. It creates one {@link RealCall} per call and hands it these parts.
 *
 * <p>A client derived from another ({@code newBuilder()}) shares every part whose settings it did
 * not change: the OkHttp client (pool and dispatcher), the circuit breaker and the retry budget
 * (same base URL, policy and clock), and the async executor. Parts the SDK created are released
 * when the last client sharing them is closed. Thread-safe.
 */
final class ClientCore implements AutoCloseable {
  private final ClientConfig config;
  private final RefCounted<OkHttpClient> http;
  private final CircuitBreaker circuitBreaker;
  private final RetryBudget budget;
  private final RefCounted<Executor> io;
  private final Intents intents;
  private final Breaker breaker;
  private final Retry retry;
  private final ClientParts parts;
  private final StoredSecrets secrets;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ClientCore(ClientConfig config, ClientCore parent) {
    this.config = config;
    this.http = (shares(parent, Part.HTTP) ? parent.http : newHttp(config)).acquire();
    this.circuitBreaker =
        shares(parent, Part.BREAKER)
            ? parent.circuitBreaker
            : Breaker.create(
                config.name(),
                config.breakerPolicy(),
                config.clock(),
                config.circuitBreakerRegistry());
    this.budget =
        shares(parent, Part.BUDGET) ? parent.budget : new RetryBudget(config.retryBudget());
    this.io = (shares(parent, Part.IO) ? parent.io : newIo(config)).acquire();
    // A composite of one: every listener call is isolated from the caller's exceptions.
    SafeRetryListener listener = SafeRetryListener.composite(config.listener());
    this.intents =
        new Intents(config.keyStore(), config.tenant(), config.intentRetention(), config.clock());
    this.breaker = new Breaker(config.name(), circuitBreaker);
    this.retry =
        shares(parent, Part.BREAKER)
            ? parent.retry
            : Retries.create(config.name(), config.retryRegistry());
    Redaction redaction = Redaction.ofApiKey(config.apiKey()).withHeaders(config.headers());
    this.secrets =
        StoredSecrets.of(
            config.apiKey(), config.apiKeyStyle().headerName(), config.headers(), config.baseUrl());
    this.parts =
        new ClientParts(
            config,
            new RequestFactory(config, redaction),
            intents,
            new Transport(
                http.get(),
                config.clock(),
                config.maxResponseBytes(),
                config.rules().requestIdHeaders()),
            breaker,
            retry,
            budget,
            listener,
            io.get(),
            new ResponseReader(config.mapper()),
            new Decision.Rules(
                config.retryPolicy(),
                config.rules(),
                config.classifier(),
                new Backoff(config.retryPolicy(), config.jitter())::delay));
  }

  /**
   * Creates the parts of a client.
   *
   * @param parent the client this one is derived from, whose unchanged parts it shares, or null
   */
  public static ClientCore create(ClientConfig config, ClientCore parent) {
    return new ClientCore(Objects.requireNonNull(config, "config"), parent);
  }

  /** Returns the settings the client was built with. */
  public ClientConfig config() {
    return config;
  }

  /** Runs a call on the calling thread; see {@code SafeRetryClient#execute}. */
  public <Q, R> CallResult<R> execute(Operation<Q, R> op, Q body, RequestOptions options) {
    return newCall(op, body, options).execute();
  }

  /** Starts a call on the I/O executor; see {@code SafeRetryClient#executeAsync}. */
  public <Q, R> CompletableFuture<CallResult<R>> executeAsync(
      Operation<Q, R> op, Q body, RequestOptions options) {
    RealCall<R> call;
    try {
      call = newCall(op, body, options);
    } catch (RuntimeException invalid) {
      return CompletableFuture.failedFuture(invalid);
    }
    return call.start();
  }

  /**
   * Returns every item of every page of a list operation, fetched lazily: each page is one call
   * through {@link #execute}, with its retries; see {@code SafeRetryClient#paginate}.
   */
  public <P, T> PagedIterable<P, T> paginate(
      Operation<Void, P> op, PageStyle<P, T> style, RequestOptions options) {
    RequestOptions o = listOptions(op, style, options);
    return PagedIterable.of(style, page -> fetch(op, o, page).value());
  }

  /** As {@link #paginate}, each page being the result of its call. */
  public <P, T> PagedIterable<CallResult<P>, T> paginateResults(
      Operation<Void, P> op, PageStyle<P, T> style, RequestOptions options) {
    RequestOptions o = listOptions(op, style, options);
    PageStyle<CallResult<P>, T> ofResults =
        new PageStyle<>() {
          @Override
          public List<T> items(CallResult<P> page) {
            return style.items(page.value());
          }

          @Override
          public Optional<PageRequest> next(CallResult<P> page) {
            return style.next(page.value());
          }
        };
    return PagedIterable.of(ofResults, page -> fetch(op, o, page));
  }

  private static RequestOptions listOptions(
      Operation<Void, ?> op, PageStyle<?, ?> style, RequestOptions options) {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(style, "style");
    RequestOptions o = options;
    if (o.intentId() != null || o.idempotencyKey() != null) {
      throw new IllegalArgumentException("pages are fetched without an intent or a caller's key");
    }
    return o;
  }

  private <P> CallResult<P> fetch(Operation<Void, P> op, RequestOptions options, PageRequest page) {
    if (page.link().isPresent()) {
      HttpUrl link = Links.resolveWithin(config.baseUrl(), page.link().get());
      return newCall(op, null, options, link).execute();
    }
    RequestOptions withCursor =
        page.isFirst()
            ? options
            : options.withoutIdentity().withQuery(page.applyTo(options.query()));
    return newCall(op, null, withCursor, null).execute();
  }

  private <R> RealCall<R> newCall(Operation<?, R> op, Object body, RequestOptions options) {
    return newCall(op, body, options, null);
  }

  // Validates and prepares everything before the call exists: nothing is recorded or sent.
  private <R> RealCall<R> newCall(
      Operation<?, R> op, Object body, RequestOptions options, HttpUrl link) {
    Objects.requireNonNull(op, "op");
    RequestOptions o = options;
    PreparedRequest request = parts.requests().prepare(op, body, o, link);
    if (op.carriesKey()) {
      intents.checkRedrive(op.name(), o);
    }
    return new RealCall<>(parts, op, body, o, request);
  }

  /**
   * Prepares a call for sending later; see {@code SafeRetryClient#prepare}.
   *
   * @throws IllegalArgumentException if it cannot be stored as given
   */
  public <Q> StoredIntent prepare(Operation<Q, ?> op, Q body, RequestOptions options) {
    Objects.requireNonNull(op, "op");
    RequestOptions o = options;
    if (!op.carriesKey() || o.intentId() == null) {
      throw new IllegalArgumentException(
          "only a call with an idempotency key and an intent id can be recorded for the relay");
    }
    if (o.apiKey() != null) {
      throw new IllegalArgumentException(
          "a per-call API key is never stored; relay such calls with a client built with that key");
    }
    String credential = config.apiKeyStyle().headerName();
    for (String name : o.headers().keySet()) {
      if (name.equalsIgnoreCase(credential) || StoredHeaders.isCredential(name)) {
        throw new IllegalArgumentException(
            "header "
                + name
                + " carries a credential, which is never stored: the relay's client adds its own");
      }
    }
    PreparedRequest p = parts.requests().prepare(op, body, o, null);
    IntentRecord record =
        IntentRecord.pending(
            intents.scope(op.name()),
            o.intentId(),
            p.key(),
            p.fingerprint(),
            intents.now(),
            config.intentRetention());
    HttpUrl base = config.baseUrl();
    String basePath =
        base.encodedPath().endsWith("/") ? base.encodedPath() : base.encodedPath() + "/";
    String path = p.url().encodedPath();
    if (!path.startsWith(basePath) && !(path + "/").equals(basePath)) {
      throw new IllegalArgumentException("the call's URL leaves the base URL's path");
    }
    String query = callQuery(p.url());
    String target =
        path.substring(Math.min(basePath.length(), path.length()))
            + (query == null ? "" : "?" + query);
    // The client's default headers (an API version) as they are now, then the call's own; a
    // default header that carries a credential is left out: the sender adds its own.
    Map<String, String> headers = new LinkedHashMap<>();
    config
        .headers()
        .forEach(
            (name, value) -> {
              if (o.headers().keySet().stream().noneMatch(name::equalsIgnoreCase)
                  && !name.equalsIgnoreCase(credential)
                  && !StoredHeaders.isCredential(name)) {
                headers.put(name, value);
              }
            });
    headers.putAll(o.headers());
    EncodedBody b = p.body();
    secrets.check(
        o.intentId(),
        headers,
        p.url().newBuilder().encodedQuery(query).build(),
        b == null ? null : b.bytes());
    StoredRequest request =
        new StoredRequest(
            op.method(),
            target,
            parts.requests().placement(op),
            headers,
            b == null ? null : b.contentType(),
            b == null ? null : b.bytes());
    Duration deadline = o.deadline() != null ? o.deadline() : config.retryPolicy().deadline();
    return new StoredIntent(record, request, deadline);
  }

  // The call's own query, without the base URL's, which comes first (see RequestFactory): a stored
  // target is relative to the base URL's query as to its path, and the sender puts its own first.
  private String callQuery(HttpUrl url) {
    String all = url.encodedQuery();
    String base = config.baseUrl().encodedQuery();
    if (all == null || base == null || base.isEmpty()) {
      return all;
    }
    if (all.equals(base)) {
      return null;
    }
    if (!all.startsWith(base + "&")) {
      throw new IllegalArgumentException("the call's query does not follow the base URL's");
    }
    return all.substring(base.length() + 1);
  }

  /**
   * Sends a stored request of an intent {@code held} holds; see {@code SafeRetryClient#send}.
   *
   * @throws IllegalArgumentException if it cannot be sent exactly as stored through this client
   */
  public CallResult<JsonNode> send(StoredRequest stored, IntentClaim held) {
    Objects.requireNonNull(stored, "stored");
    IntentRecord record = Objects.requireNonNull(held.intent(), "intent");
    if (!record.scope().tenant().equals(config.tenant())) {
      throw new IllegalArgumentException(
          "intent "
              + record.intentId()
              + " belongs to tenant '"
              + record.scope().tenant()
              + "', but this client works for tenant '"
              + config.tenant()
              + "'");
    }
    if (record.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("intent " + record.intentId() + " is not pending");
    }
    Operation<Void, JsonNode> op =
        Operation.of(stored.method(), "/{stored}", Void.class, TypeRef.of(JsonNode.class))
            .named(record.scope().operation())
            .carryingKey(true);
    RequestOptions options =
        RequestOptions.none().withIntentId(record.intentId()).withIdempotencyKey(record.key());
    PreparedRequest request = parts.requests().stored(op, options, record.fingerprint(), stored);
    return new RealCall<>(parts, op, null, options, request, held).execute();
  }

  /** Refuses a listed intent of another tenant than this client's. */
  void checkTenant(IntentRecord listed) {
    intents.checkTenant(listed);
  }

  /** Records what a lookup proved about a listed intent; see {@code SafeRetryClient#reconcile}. */
  void recordReconciled(IntentRecord listed, Reconciliation found) {
    intents.recordReconciled(listed, found);
  }

  /** This client's tenant's pending intents, oldest first. */
  public List<IntentRecord> pendingIntents() {
    return intents.pending();
  }

  /** Abandons a listed intent if the store still holds it with the listed key. */
  public boolean abandon(IntentRecord listed) {
    return intents.abandon(listed);
  }

  /** Abandons this tenant's intent of an operation. */
  public boolean abandon(Operation<?, ?> op, String intentId) {
    return intents.abandon(op.name(), intentId);
  }

  /** Returns the OkHttp client the SDK sends with (the caller's, with SDK-owned retries). */
  OkHttpClient http() {
    return http.get();
  }

  /** Returns resilience4j's retry, which judges every attempt of this client's calls. */
  public Retry retry() {
    return retry;
  }

  /** Returns resilience4j's circuit breaker (shared with derived clients of the same settings). */
  public CircuitBreaker circuitBreaker() {
    return circuitBreaker;
  }

  /** Releases this client's hold on shared parts; the last holder frees what the SDK created. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      io.release();
      http.release();
    }
  }

  private enum Part {
    HTTP,
    BREAKER,
    BUDGET,
    IO
  }

  // Whether a derived client keeps its parent's part: only if it did not change its settings.
  private boolean shares(ClientCore parent, Part part) {
    if (parent == null || parent.closed.get()) {
      return false;
    }
    ClientConfig p = parent.config;
    switch (part) {
      case HTTP:
        return config.okHttpClient() == p.okHttpClient();
      case BREAKER:
        return config.baseUrl().equals(p.baseUrl())
            && config.breakerPolicy().equals(p.breakerPolicy())
            && config.clock() == p.clock()
            && config.retryRegistry() == p.retryRegistry()
            && config.circuitBreakerRegistry() == p.circuitBreakerRegistry();
      case BUDGET:
        return config.baseUrl().equals(p.baseUrl()) && config.retryBudget().equals(p.retryBudget());
      default:
        return config.asyncExecutor() == p.asyncExecutor()
            && config.asyncConcurrency() == p.asyncConcurrency();
    }
  }

  private static RefCounted<OkHttpClient> newHttp(ClientConfig config) {
    if (config.okHttpClient() != null) {
      // Derived from the caller's: shares their pool and dispatcher, which they close.
      return RefCounted.borrowed(OneRequestPerAttempt.sdkOwned(config.okHttpClient()));
    }
    OkHttpClient own = OneRequestPerAttempt.sdkOwned(defaultHttpClient());
    return RefCounted.owned(
        own,
        () -> {
          own.dispatcher().executorService().shutdown();
          own.connectionPool().evictAll();
        });
  }

  /** How many idle connections the SDK's own HTTP client keeps for reuse. */
  static final int IDLE_CONNECTIONS = 32;

  /**
   * The client the SDK creates when the caller brings none: 10 s connect, 30 s read and write.
   * OkHttp's fast fallback (racing connects to several addresses) is off: it runs each racing
   * connect on a platform thread of OkHttp's own, so thousands of calls connecting at once would
   * start as many platform threads; without it a call connects on its own thread (a virtual thread
   * for {@code executeAsync} on JDK 21 and newer), trying the addresses in order. Its pool keeps up
   * to {@value #IDLE_CONNECTIONS} idle connections for 5 minutes (OkHttp's own default keeps 5): a
   * service calling a provider from many threads at once, or running several outbox relays on one
   * client, would otherwise close and reopen connections between bursts.
   */
  static OkHttpClient defaultHttpClient() {
    return new OkHttpClient.Builder()
        .connectionPool(new ConnectionPool(IDLE_CONNECTIONS, 5, TimeUnit.MINUTES))
        .connectTimeout(Duration.ofSeconds(10))
        .readTimeout(Duration.ofSeconds(30))
        .writeTimeout(Duration.ofSeconds(30))
        .fastFallback(false)
        .build();
  }

  private static RefCounted<Executor> newIo(ClientConfig config) {
    if (config.asyncExecutor() != null) {
      return RefCounted.borrowed(config.asyncExecutor());
    }
    ExecutorService own = AsyncIo.create(config.name(), config.asyncConcurrency());
    return RefCounted.owned(own, own::shutdown);
  }
}
