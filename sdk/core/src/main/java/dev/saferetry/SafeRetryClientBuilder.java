package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.HttpText;
import dev.saferetry.internal.Redaction;
import dev.saferetry.internal.codec.ErrorBodies;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Builds a {@link SafeRetryClient}. Only {@link #baseUrl} is required; every other setting states
 * its default. {@link #build()} validates and names the bad parameter.
 *
 * <p>A builder from {@link SafeRetryClient#newBuilder()} starts with that client's settings, and
 * the client it builds shares with that one every part whose settings were not changed: the OkHttp
 * client (connection pool and dispatcher) unless {@link #okHttpClient} is set; the circuit breaker
 * and the retry budget unless {@link #baseUrl}, {@link #breakerPolicy} (or {@link #clock}), or
 * {@link #retryBudget} is set to another value; the async executor unless {@link #asyncExecutor} or
 * {@link #asyncConcurrency} is. What the SDK created is released when the last client sharing it is
 * closed.
 *
 * <p>Not thread-safe; the clients it builds are.
 */
public final class SafeRetryClientBuilder {
  // The settings, set field by field by the setters below; build() resolves a copy.
  private final ClientConfig config;
  private final ClientCore parent;

  // Which provider settings were made here: what toPreset takes into a preset.
  private final EnumSet<ProviderPreset.Part> touched = EnumSet.noneOf(ProviderPreset.Part.class);

  SafeRetryClientBuilder() {
    this.parent = null;
    this.config = new ClientConfig();
  }

  SafeRetryClientBuilder(ClientCore parent) {
    this.parent = parent;
    this.config = new ClientConfig(parent.config());
  }

  private SafeRetryClientBuilder touched(ProviderPreset.Part part) {
    touched.add(part);
    return this;
  }

  /**
   * Speaks a provider's API: sets what the preset holds — key placement, body codec, API key style,
   * default and identity headers, request id headers, the replay marker, how a reused key, a
   * running request and an "already created" conflict are answered, should-retry headers, retryable
   * errors, {@link #intentRetention} and the longest key — as this builder's own setters would.
   * Settings made after this call override the preset's; an operation's and then a call's own value
   * override the client's.
   *
   * <pre>{@code
   * SafeRetryClient stripe = SafeRetryClient.builder()
   *     .baseUrl("https://api.stripe.com")
   *     .preset(ProviderPreset.stripe())
   *     .apiKey(System.getenv("STRIPE_SECRET_KEY"))
   *     .header("Stripe-Version", "2024-06-20")
   *     .build();
   * }</pre>
   *
   * @param preset the preset
   * @return this builder
   */
  public SafeRetryClientBuilder preset(ProviderPreset preset) {
    Objects.requireNonNull(preset, "preset");
    for (ProviderPreset.Part part : preset.parts()) {
      part.copy(preset.values(), config);
      touched.add(part);
    }
    config.presetName = preset.name();
    return this;
  }

  /**
   * {@return the provider settings made on this builder, as a preset of your own} It holds what
   * {@link #preset} sets — key placement, body codec, API key style, default and identity headers,
   * intent retention and the answer rules — and only what was set here; nothing else of this
   * builder goes into it, so it never holds an API key, a base URL or a key store.
   *
   * <pre>{@code
   * ProviderPreset acme = SafeRetryClient.builder()
   *     .keyPlacement(KeyPlacement.header("Acme-Request-Key"))
   *     .requestIdHeaders("Acme-Trace")
   *     .toPreset("acme", "https://docs.acme.example/idempotency");
   * }</pre>
   *
   * @param name the provider's name, for logs
   * @param sources the URLs of the documentation pages the values come from
   * @throws IllegalArgumentException if the name is blank, a source is not a URI, or a default
   *     header set here carries a credential (a preset never does)
   */
  public ProviderPreset toPreset(String name, String... sources) {
    return new ProviderPreset(name, new ClientConfig(config), touched, sources);
  }

  /**
   * The response header that marks an answer as the replay of the key's stored result. Counted only
   * on requests that carry a key. Default: {@code Idempotent-Replayed: true}, or the preset's; none
   * after {@link #noReplayMarker()}.
   *
   * @param header the header name, an HTTP token
   * @param value the value that marks a replay, compared ignoring case and surrounding blanks; not
   *     blank
   * @return this builder
   * @throws IllegalArgumentException if the header name is not a token or the value is blank
   */
  public SafeRetryClientBuilder replayMarker(String header, String value) {
    config.replayMarker = new ReplayMarker(header, value);
    return touched(ProviderPreset.Part.REPLAY_MARKER);
  }

  /**
   * No answer is taken for the replay of the key's stored result: for a provider that marks none.
   *
   * @return this builder
   */
  public SafeRetryClientBuilder noReplayMarker() {
    config.replayMarker = null;
    return touched(ProviderPreset.Part.REPLAY_MARKER);
  }

  /**
   * How the provider says the key was used with another payload (the call ends FAILED, {@code
   * KEY_REUSED}); replaces the list. Default: 422, or Stripe's 400 {@code idempotency_error}; or
   * the preset's.
   *
   * @param matches the answers, none for none
   * @return this builder
   */
  public SafeRetryClientBuilder keyReused(ErrorMatch... matches) {
    config.keyReused = List.of(matches);
    return touched(ProviderPreset.Part.KEY_REUSED);
  }

  /**
   * How the provider says a request with the same key is still running (retried; {@code
   * IN_PROGRESS} when retries stop); replaces the list. Default: 409, or the preset's.
   *
   * @param matches the answers, none for none
   * @return this builder
   */
  public SafeRetryClientBuilder inProgress(ErrorMatch... matches) {
    config.inProgress = List.of(matches);
    return touched(ProviderPreset.Part.IN_PROGRESS);
  }

  /**
   * The conflict that means "already created" and names the resource (a success carrying its id).
   * Default: none, or the preset's (GoCardless); none after {@link #noExistingResource()}.
   *
   * <p>GoCardless answers a repeated creation not with a replay but with {@code 409}, {@code
   * error.errors[].reason = "idempotent_creation_conflict"} and the id in {@code
   * links.conflicting_resource_id}: the intent's effect exists, and its resource can be fetched by
   * id. The id is server text, so it counts only when it is 1 to 255 visible ASCII characters; a
   * conflict naming none or an unusable one ends the call at once {@code UNKNOWN} ({@code
   * EXISTING_RESOURCE_ID_UNUSABLE}, the intent left pending), never a success.
   *
   * @param conflict how the conflict is recognised, by a text (its {@code equals} not null)
   * @param idField the pointer to the resource id, relative to the object {@code conflict} selected
   * @return this builder
   * @throws IllegalArgumentException if the conflict is recognised by a status alone or the pointer
   *     is malformed
   */
  public SafeRetryClientBuilder existingResource(ErrorMatch conflict, String idField) {
    config.existingResource = new ExistingResource(conflict, idField);
    return touched(ProviderPreset.Part.EXISTING_RESOURCE);
  }

  /**
   * No conflict is read as "already created": every conflict is an answer like any other.
   *
   * @return this builder
   */
  public SafeRetryClientBuilder noExistingResource() {
    config.existingResource = null;
    return touched(ProviderPreset.Part.EXISTING_RESOURCE);
  }

  /**
   * Response headers whose {@code true} or {@code false} decides whether an error answer is
   * retried; replaces the list. A {@code false} stops the retries but never turns an answer that
   * proves nothing (a 5xx, 408, 409, 429) into FAILED: such a call ends UNKNOWN ({@code
   * SERVER_SAID_DO_NOT_RETRY}). Values are read ignoring case and blanks; headers sent together
   * count only when their values agree. Default: {@code X-Should-Retry}, or the preset's (Stripe
   * adds {@code Stripe-Should-Retry}).
   *
   * @param headerNames the header names, none to ignore such headers
   * @return this builder
   */
  public SafeRetryClientBuilder shouldRetryHeaders(String... headerNames) {
    for (String name : headerNames) {
      HttpText.headerName("shouldRetryHeaders", Objects.requireNonNull(name, "name"));
    }
    config.shouldRetryHeaders = List.of(headerNames);
    return touched(ProviderPreset.Part.SHOULD_RETRY_HEADERS);
  }

  /**
   * Error answers the provider documents as safe to retry with the same key (Square's {@code
   * TEMPORARY_ERROR}); replaces the list. Default: none, or the preset's.
   *
   * @param matches the answers, none for none
   * @return this builder
   */
  public SafeRetryClientBuilder retryableErrors(ErrorMatch... matches) {
    config.retryableErrors = List.of(matches);
    return touched(ProviderPreset.Part.RETRYABLE_ERRORS);
  }

  /**
   * Response headers carrying the provider's request id, in order of preference; {@code Request-Id}
   * and {@code X-Request-Id} are always looked at last. Default: none beyond those, or the
   * preset's.
   *
   * @param headerNames the header names
   * @return this builder
   */
  public SafeRetryClientBuilder requestIdHeaders(String... headerNames) {
    for (String name : headerNames) {
      HttpText.headerName("requestIdHeaders", Objects.requireNonNull(name, "name"));
    }
    config.requestIdHeaders = List.of(headerNames);
    return touched(ProviderPreset.Part.REQUEST_ID_HEADERS);
  }

  /**
   * The JSON pointer of the request id in an error body. Default: none, or the preset's; none after
   * {@link #noErrorRequestIdField()}.
   *
   * @param pointer the pointer, e.g. {@code /debug_id}
   * @return this builder
   */
  public SafeRetryClientBuilder errorRequestIdField(String pointer) {
    Objects.requireNonNull(pointer, "errorRequestIdField");
    ErrorBodies.checkPointer(pointer, false, "errorRequestIdField");
    config.errorRequestIdField = pointer;
    return touched(ProviderPreset.Part.ERROR_REQUEST_ID_FIELD);
  }

  /**
   * No request id is read from error bodies (the headers still carry one).
   *
   * @return this builder
   */
  public SafeRetryClientBuilder noErrorRequestIdField() {
    config.errorRequestIdField = null;
    return touched(ProviderPreset.Part.ERROR_REQUEST_ID_FIELD);
  }

  /**
   * The longest idempotency key the provider accepts (a longer caller's key is refused before any
   * I/O), or 0 for no limit. Default: 0, or the preset's.
   *
   * @param length the length, or 0
   * @return this builder
   */
  public SafeRetryClientBuilder keyMaxLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("keyMaxLength must not be negative, was " + length);
    }
    config.keyMaxLength = length;
    return touched(ProviderPreset.Part.KEY_MAX_LENGTH);
  }

  /**
   * The codec of request bodies for operations that name none ({@link Operation#withCodec} sets one
   * operation's). Default: JSON with the client's {@link #objectMapper}, or the preset's.
   *
   * @param codec the codec
   * @return this builder
   */
  public SafeRetryClientBuilder codec(BodyCodec codec) {
    config.codec = Objects.requireNonNull(codec, "codec");
    return touched(ProviderPreset.Part.CODEC);
  }

  /**
   * Where and how the API key is sent. Default: {@code Authorization: Bearer <key>}, or the
   * preset's.
   *
   * @param style the style
   * @return this builder
   */
  public SafeRetryClientBuilder apiKeyStyle(ApiKeyStyle style) {
    config.apiKeyStyle = Objects.requireNonNull(style, "apiKeyStyle");
    return touched(ProviderPreset.Part.API_KEY_STYLE);
  }

  /**
   * Adds a header sent on every request, e.g. {@code Stripe-Version}, or replaces the value set
   * before; an operation's ({@link Operation#withHeader}) and a call's ({@link
   * RequestOptions#withHeader}) header of the same name wins. Validated now; the idempotency key
   * and request id headers cannot be set this way. Default: none, or the preset's.
   *
   * @param name the name
   * @param value the value
   * @return this builder
   * @throws IllegalArgumentException for a bad name or value (the message never holds the value)
   */
  public SafeRetryClientBuilder header(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    HttpText.headerName("header name", name);
    HttpText.headerValue(name, value);
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("x-request-id") || lower.equals("user-agent")) {
      throw new IllegalArgumentException(
          name + " is set by the SDK; use userAgent() for User-Agent");
    }
    config.headers = ProviderPreset.Part.withHeader(config.headers, name, value);
    return touched(ProviderPreset.Part.HEADERS);
  }

  /**
   * Makes headers part of the identity of every intent of this client, in addition to those named
   * before (as {@link Operation#withIdentityHeaders} does for one operation): the same intent id
   * sent with another value of one of them fails before any I/O as a payload mismatch. Default:
   * none, or the preset's (e.g. {@code Stripe-Account}).
   *
   * @param names the header names, any case
   * @return this builder
   */
  public SafeRetryClientBuilder identityHeaders(String... names) {
    for (String name : names) {
      HttpText.headerName("identity header", Objects.requireNonNull(name, "name"));
    }
    config.identityHeaders = ProviderPreset.Part.withNames(config.identityHeaders, names);
    return touched(ProviderPreset.Part.IDENTITY_HEADERS);
  }

  /**
   * Names the application in the {@code User-Agent}: {@code "<app>/<version> saferetry-java/<sdk
   * version>"}. Default: the SDK's token alone.
   *
   * @param appName the application's name: letters, digits and {@code !#$%&'*+-.^_`|~}
   * @param appVersion the application's version, same characters
   * @return this builder
   */
  public SafeRetryClientBuilder userAgent(String appName, String appVersion) {
    config.userAgent =
        HttpText.token("appName", appName)
            + "/"
            + HttpText.token("appVersion", appVersion)
            + " "
            + ClientConfig.SDK_AGENT;
    return this;
  }

  /**
   * The API's base URL, e.g. {@code https://api.example.com}. Required. A query string is kept and
   * sent, but never printed; user info ({@code user:password@}) is refused by {@link #build()}.
   *
   * @param url the base URL
   * @return this builder
   * @throws IllegalArgumentException if it is not an absolute http or https URL (the message does
   *     not repeat it)
   */
  public SafeRetryClientBuilder baseUrl(String url) {
    HttpUrl parsed = HttpUrl.parse(Objects.requireNonNull(url, "baseUrl"));
    if (parsed == null) {
      throw new IllegalArgumentException("baseUrl is not an absolute http or https URL");
    }
    config.baseUrl = parsed;
    return this;
  }

  /**
   * The API key, sent as {@code Authorization: Bearer <key>}: 1 to 4,096 visible ASCII characters,
   * checked by {@link #build()}. Never logged or printed, and masked wherever a server echoes it
   * (error fields, request ids). Default: none.
   *
   * @param key the key
   * @return this builder
   */
  public SafeRetryClientBuilder apiKey(String key) {
    config.apiKey = Objects.requireNonNull(key, "apiKey");
    return this;
  }

  /**
   * The caller's OkHttp client; its interceptors, pool, timeouts and proxy are kept. Everything
   * with which OkHttp would send a request the SDK did not decide on is switched off in the SDK's
   * derived client: the silent retry on connection failure, redirects, the {@link
   * okhttp3.Authenticator} (a 401 is an answer: put credentials on every request with {@link
   * #apiKey} or an interceptor; a warning is logged if one is set), the proxy authenticator except
   * for a tunnel's {@code CONNECT}, and any second request within one attempt (a 503 with {@code
   * Retry-After: 0}, a 421, an interceptor calling {@code proceed} twice), which is refused before
   * it is written. Default: a client with 10 s connect, 30 s read and 30 s write timeouts, owned by
   * the SDK.
   *
   * @param client the client
   * @return this builder
   */
  public SafeRetryClientBuilder okHttpClient(OkHttpClient client) {
    config.okHttpClient = Objects.requireNonNull(client, "okHttpClient");
    return this;
  }

  /**
   * The caller's Jackson mapper; a copy is used that ignores unknown fields. Default: a new one.
   *
   * @param mapper the mapper
   * @return this builder
   */
  public SafeRetryClientBuilder objectMapper(ObjectMapper mapper) {
    config.mapper = Objects.requireNonNull(mapper, "objectMapper");
    return this;
  }

  /**
   * Where the key goes. Default: {@link KeyPlacement#header()} ({@code Idempotency-Key}).
   *
   * @param placement the placement
   * @return this builder
   */
  public SafeRetryClientBuilder keyPlacement(KeyPlacement placement) {
    config.keyPlacement = Objects.requireNonNull(placement, "keyPlacement");
    return touched(ProviderPreset.Part.KEY_PLACEMENT);
  }

  /**
   * Where intents' keys are kept. Default: a new {@link KeyStore#inMemory()}.
   *
   * @param store the store
   * @return this builder
   */
  public SafeRetryClientBuilder keyStore(KeyStore store) {
    config.keyStore = Objects.requireNonNull(store, "keyStore");
    return this;
  }

  /**
   * The tenant that scopes intent ids. Default: {@value IntentScope#DEFAULT_TENANT}.
   *
   * @param tenantName the tenant name
   * @return this builder
   */
  public SafeRetryClientBuilder tenant(String tenantName) {
    config.tenant = Objects.requireNonNull(tenantName, "tenant");
    return this;
  }

  /**
   * How long an intent's key is kept and reused. Keep this no longer than the server keeps keys (24
   * h is the common floor). Must be positive and at most {@link IntentRecord#MAX_RETENTION}
   * (checked by {@link #build()}). Default: 24 h.
   *
   * <p><b>Whose clock.</b> The in-memory and file stores measure the retention by this client's
   * {@link #clock} (the host's): a clock stepped <i>ahead</i> by more than the retention lets a
   * completed intent be recorded again with a new key — a second charge if the server still keeps
   * the first — and purges it early; a clock stepped <i>behind</i> keeps completed intents longer,
   * and never lets a pending intent's stale key be re-sent (intent time never runs backwards). Keep
   * the host's clock synchronised, or use a shared store: {@code JdbcKeyStore} measures the
   * retention by the database's clock, whatever the clients' clocks say.
   *
   * @param retention the retention
   * @return this builder
   */
  public SafeRetryClientBuilder intentRetention(Duration retention) {
    config.intentRetention = Objects.requireNonNull(retention, "intentRetention");
    return touched(ProviderPreset.Part.INTENT_RETENTION);
  }

  /**
   * Attempts, backoff, deadline and hint ceiling. Default: {@link RetryPolicy#defaults()}.
   *
   * @param policy the policy
   * @return this builder
   */
  public SafeRetryClientBuilder retryPolicy(RetryPolicy policy) {
    config.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
    return this;
  }

  /**
   * What is retried. Default: {@link RetryClassifier#standard()}.
   *
   * @param c the classifier
   * @return this builder
   */
  public SafeRetryClientBuilder retryClassifier(RetryClassifier c) {
    config.classifier = Objects.requireNonNull(c, "retryClassifier");
    return this;
  }

  /**
   * The circuit breaker. Default: {@link BreakerPolicy#defaults()}.
   *
   * @param policy the policy
   * @return this builder
   */
  public SafeRetryClientBuilder breakerPolicy(BreakerPolicy policy) {
    config.breakerPolicy = Objects.requireNonNull(policy, "breakerPolicy");
    return this;
  }

  /**
   * The client-wide retry budget, shared by all its calls. Default: {@link
   * RetryBudgetPolicy#defaults()} (20 tokens, 1 per retry, 0.1 back per success).
   *
   * @param policy the policy
   * @return this builder
   */
  public SafeRetryClientBuilder retryBudget(RetryBudgetPolicy policy) {
    config.retryBudget = Objects.requireNonNull(policy, "retryBudget");
    return this;
  }

  /**
   * The resilience4j registry the client's {@code Retry} is created in, under the client's {@link
   * #name}, so that the registry's event consumers and tags apply and metrics bound to it (e.g.
   * resilience4j-micrometer's {@code TaggedRetryMetrics}) count the client's calls. Default: none
   * (the retry stands alone; {@link SafeRetryClient#retry()} returns it either way).
   *
   * <p>The registry's configurations do not apply: the retry's configuration is the client's. Its
   * result and exception predicates and its interval function are SafeRetry's retry decision —
   * which answer is retried, after how long (backoff or {@code Retry-After}), and when the
   * deadline, the budget, the breaker or the {@link RetryPolicy} stop it — because they are what
   * keeps one key per intent and never turns an answer that proves nothing into a failure; its
   * {@code maxAttempts} is unbounded because the decision counts attempts (a call may set its own
   * maximum). Clients of the same name share the retry: its events and metrics then count all of
   * their calls.
   *
   * @param registry the registry
   * @return this builder
   * @throws IllegalArgumentException from {@link #build()} if the registry holds a retry of this
   *     name that no client made
   */
  public SafeRetryClientBuilder retryRegistry(RetryRegistry registry) {
    config.retryRegistry = Objects.requireNonNull(registry, "retryRegistry");
    return this;
  }

  /**
   * The resilience4j registry the client's {@code CircuitBreaker} is created in, under the client's
   * {@link #name}, so that the registry's event consumers and tags apply and metrics bound to it
   * count the client's attempts. Default: none (the breaker stands alone; {@link
   * SafeRetryClient#circuitBreaker()} returns it either way).
   *
   * <p>The registry's configurations do not apply: the breaker is configured from the {@link
   * #breakerPolicy} (failure rate, window, minimum calls, wait when open, half-open probes) and the
   * client's {@link #clock}, and what it records as a failure is SafeRetry's rule (a failure to
   * connect, 429 and the retryable 5xx; a lost answer only when the call ends without one), which
   * retries with one key depend on.
   *
   * @param registry the registry
   * @return this builder
   * @throws IllegalArgumentException from {@link #build()} if the registry already holds a breaker
   *     of this name (another client's, or one made for something else): each client's name must be
   *     its own, unless a client derived with {@link SafeRetryClient#newBuilder()} shares its
   *     parent's breaker
   */
  public SafeRetryClientBuilder circuitBreakerRegistry(CircuitBreakerRegistry registry) {
    config.circuitBreakerRegistry = Objects.requireNonNull(registry, "circuitBreakerRegistry");
    return this;
  }

  /**
   * Observes attempts, retries and breaker changes. Default: none.
   *
   * @param l the listener
   * @return this builder
   */
  public SafeRetryClientBuilder listener(SafeRetryListener l) {
    config.listener = Objects.requireNonNull(l, "listener");
    return this;
  }

  /**
   * The clock for deadlines, hints, intents and the breaker. Default: the UTC system clock.
   *
   * @param c the clock
   * @return this builder
   */
  public SafeRetryClientBuilder clock(Clock c) {
    config.clock = Objects.requireNonNull(c, "clock");
    return this;
  }

  /**
   * How the client waits between attempts. Default: {@link Sleeper#system()}.
   *
   * @param s the sleeper
   * @return this builder
   */
  public SafeRetryClientBuilder sleeper(Sleeper s) {
    config.sleeper = Objects.requireNonNull(s, "sleeper");
    return this;
  }

  /**
   * The jitter source, returning values in [0, 1). Default: a {@link SecureRandom}.
   *
   * @param random returns values in [0, 1)
   * @return this builder
   */
  public SafeRetryClientBuilder jitter(DoubleSupplier random) {
    config.jitter = Objects.requireNonNull(random, "jitter");
    return this;
  }

  /**
   * The largest 2xx body read; at least 1. Default: 8 MiB. A body is held in one byte array, so a
   * limit above 2,147,483,639 bytes (up to {@link Long#MAX_VALUE}) means that size.
   *
   * @param bytes the largest 2xx body, in bytes
   * @return this builder
   */
  public SafeRetryClientBuilder maxResponseBytes(long bytes) {
    config.maxResponseBytes = bytes;
    return this;
  }

  /**
   * The executor on which {@code executeAsync} runs its blocking work (recording the intent, each
   * attempt's I/O), for full control. It is not shut down by {@link SafeRetryClient#close()}. Waits
   * between attempts never run on it. Default: the client's own executor, see {@link
   * #asyncConcurrency}.
   *
   * @param executor the executor
   * @return this builder
   */
  public SafeRetryClientBuilder asyncExecutor(Executor executor) {
    config.asyncExecutor = Objects.requireNonNull(executor, "asyncExecutor");
    return this;
  }

  /**
   * How many {@code executeAsync} calls the client's own executor runs at once; further calls wait
   * in FIFO order, holding no thread (their deadline starts when they run). On JDK 21 and newer
   * each running call has a virtual thread; before, a platform thread, created on demand and
   * retired after a minute idle. Ignored when an {@link #asyncExecutor} is set. At least 1.
   * Default: 1,024 on JDK 21 and newer, 32 before.
   *
   * @param calls the most calls running at once
   * @return this builder
   */
  public SafeRetryClientBuilder asyncConcurrency(int calls) {
    config.asyncConcurrency = calls;
    return this;
  }

  /**
   * A request header that carries the attempt number ({@code 1} for the first attempt), for servers
   * that log retries, e.g. {@code "Idempotency-Attempt"}. It is not part of the intent's identity.
   * Must be a valid header name, and neither {@code X-Request-Id} nor the key's header. Default:
   * none (no such header is sent).
   *
   * @param headerName the header name
   * @return this builder
   */
  public SafeRetryClientBuilder attemptHeader(String headerName) {
    config.attemptHeader = Objects.requireNonNull(headerName, "attemptHeader");
    return this;
  }

  /**
   * The client's name in logs, metrics and thread names: printable ASCII. Default: {@code
   * saferetry}.
   *
   * @param clientName the client name
   * @return this builder
   */
  public SafeRetryClientBuilder name(String clientName) {
    config.name = Objects.requireNonNull(clientName, "name");
    return this;
  }

  /**
   * Builds the client.
   *
   * @return the client
   * @throws IllegalStateException if {@code baseUrl} was not set
   * @throws IllegalArgumentException naming the first bad setting (never echoing a secret)
   */
  public SafeRetryClient build() {
    return new SafeRetryClient(ClientCore.create(config.resolve(), parent));
  }

  /** Names the client and its base URL, without user info or query: never a secret. */
  @Override
  public String toString() {
    return "SafeRetryClientBuilder[" + config.name + ", " + Redaction.url(config.baseUrl) + "]";
  }
}
