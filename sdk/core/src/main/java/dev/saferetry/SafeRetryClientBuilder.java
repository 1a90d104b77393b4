package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.provider.ApiKeyStyle;
import dev.saferetry.provider.ErrorMatch;
import dev.saferetry.provider.ProviderPreset;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
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
  private final ClientDraft settings;
  private final ClientCore parent;

  SafeRetryClientBuilder() {
    this.parent = null;
    this.settings = new ClientDraft();
  }

  SafeRetryClientBuilder(ClientCore parent) {
    this.parent = parent;
    this.settings = parent.config().draft();
  }

  /**
   * Speaks a provider's API: the preset sets, through this builder's own setters, what its provider
   * documents — key placement, body codec, API key style, default and identity headers, request id
   * headers, the replay marker, how a reused key, a running request and an "already created"
   * conflict are answered, should-retry headers, retryable errors, {@link #intentRetention} and the
   * longest key. Settings made after this call override the preset's; an operation's and then a
   * call's own value override the client's.
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
    Objects.requireNonNull(preset, "preset").applyTo(this);
    settings.presetName(preset.name());
    return this;
  }

  /**
   * The response header that marks an answer as the replay of the key's stored result, or null for
   * none. Counted only on requests that carry a key. Default: {@code Idempotent-Replayed: true}, or
   * the preset's.
   *
   * @param header the header name, an HTTP token; null (with {@code value} null) for none
   * @param value the value that marks a replay, compared ignoring case and surrounding blanks; not
   *     blank
   * @return this builder
   * @throws IllegalArgumentException if the header name is not a token or the value is blank
   * @throws NullPointerException if only one of the two is null
   */
  public SafeRetryClientBuilder replayMarker(String header, String value) {
    settings.replayMarker(header == null && value == null ? null : new ReplayMarker(header, value));
    return this;
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
    settings.keyReused(matches);
    return this;
  }

  /**
   * How the provider says a request with the same key is still running (retried; {@code
   * IN_PROGRESS} when retries stop); replaces the list. Default: 409, or the preset's.
   *
   * @param matches the answers, none for none
   * @return this builder
   */
  public SafeRetryClientBuilder inProgress(ErrorMatch... matches) {
    settings.inProgress(matches);
    return this;
  }

  /**
   * The conflict that means "already created" and names the resource (a success carrying its id),
   * or null for none. Default: none, or the preset's (GoCardless).
   *
   * <p>GoCardless answers a repeated creation not with a replay but with {@code 409}, {@code
   * error.errors[].reason = "idempotent_creation_conflict"} and the id in {@code
   * links.conflicting_resource_id}: the intent's effect exists, and its resource can be fetched by
   * id. The id is server text, so it counts only when it is 1 to 255 visible ASCII characters; a
   * conflict naming none or an unusable one ends the call at once {@code UNKNOWN} ({@code
   * EXISTING_RESOURCE_ID_UNUSABLE}, the intent left pending), never a success.
   *
   * @param conflict how the conflict is recognised, by a text (its {@code equals} not null); null
   *     (with {@code idField} null) for none
   * @param idField the pointer to the resource id, relative to the object {@code conflict} selected
   * @return this builder
   * @throws IllegalArgumentException if the conflict is recognised by a status alone or the pointer
   *     is malformed
   * @throws NullPointerException if only one of the two is null
   */
  public SafeRetryClientBuilder existingResource(ErrorMatch conflict, String idField) {
    settings.existingResource(
        conflict == null && idField == null ? null : new ExistingResource(conflict, idField));
    return this;
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
    settings.shouldRetryHeaders(headerNames);
    return this;
  }

  /**
   * Error answers the provider documents as safe to retry with the same key (Square's {@code
   * TEMPORARY_ERROR}); replaces the list. Default: none, or the preset's.
   *
   * @param matches the answers, none for none
   * @return this builder
   */
  public SafeRetryClientBuilder retryableErrors(ErrorMatch... matches) {
    settings.retryableErrors(matches);
    return this;
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
    settings.requestIdHeaders(headerNames);
    return this;
  }

  /**
   * The JSON pointer of the request id in an error body, or null for none. Default: none, or the
   * preset's.
   *
   * @param pointer the pointer, e.g. {@code /debug_id}, or null
   * @return this builder
   */
  public SafeRetryClientBuilder errorRequestIdField(String pointer) {
    settings.errorRequestIdField(pointer);
    return this;
  }

  /**
   * The longest idempotency key the provider accepts (a longer caller's key is refused before any
   * I/O), or 0 for no limit. Default: 0, or the preset's.
   *
   * @param length the length, or 0
   * @return this builder
   */
  public SafeRetryClientBuilder keyMaxLength(int length) {
    settings.keyMaxLength(length);
    return this;
  }

  /**
   * The codec of request bodies for operations that name none ({@link Operation#withCodec} sets one
   * operation's). Default: JSON with the client's {@link #objectMapper}, or the preset's.
   *
   * @param codec the codec
   * @return this builder
   */
  public SafeRetryClientBuilder codec(BodyCodec codec) {
    settings.codec(codec);
    return this;
  }

  /**
   * Where and how the API key is sent. Default: {@code Authorization: Bearer <key>}, or the
   * preset's.
   *
   * @param style the style
   * @return this builder
   */
  public SafeRetryClientBuilder apiKeyStyle(ApiKeyStyle style) {
    settings.apiKeyStyle(style);
    return this;
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
    settings.header(name, value);
    return this;
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
    settings.identityHeaders(names);
    return this;
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
    settings.userAgent(appName, appVersion);
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
    settings.baseUrl(url);
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
    settings.apiKey(key);
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
    settings.okHttpClient(client);
    return this;
  }

  /**
   * The caller's Jackson mapper; a copy is used that ignores unknown fields. Default: a new one.
   *
   * @param mapper the mapper
   * @return this builder
   */
  public SafeRetryClientBuilder objectMapper(ObjectMapper mapper) {
    settings.objectMapper(mapper);
    return this;
  }

  /**
   * Where the key goes. Default: {@link KeyPlacement#header()} ({@code Idempotency-Key}).
   *
   * @param placement the placement
   * @return this builder
   */
  public SafeRetryClientBuilder keyPlacement(KeyPlacement placement) {
    settings.keyPlacement(placement);
    return this;
  }

  /**
   * Where intents' keys are kept. Default: a new {@link KeyStore#inMemory()}.
   *
   * @param store the store
   * @return this builder
   */
  public SafeRetryClientBuilder keyStore(KeyStore store) {
    settings.keyStore(store);
    return this;
  }

  /**
   * The tenant that scopes intent ids. Default: {@value IntentScope#DEFAULT_TENANT}.
   *
   * @param tenantName the tenant name
   * @return this builder
   */
  public SafeRetryClientBuilder tenant(String tenantName) {
    settings.tenant(tenantName);
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
    settings.intentRetention(retention);
    return this;
  }

  /**
   * Attempts, backoff, deadline and hint ceiling. Default: {@link RetryPolicy#defaults()}.
   *
   * @param policy the policy
   * @return this builder
   */
  public SafeRetryClientBuilder retryPolicy(RetryPolicy policy) {
    settings.retryPolicy(policy);
    return this;
  }

  /**
   * What is retried. Default: {@link RetryClassifier#standard()}.
   *
   * @param c the classifier
   * @return this builder
   */
  public SafeRetryClientBuilder retryClassifier(RetryClassifier c) {
    settings.retryClassifier(c);
    return this;
  }

  /**
   * The circuit breaker. Default: {@link BreakerPolicy#defaults()}.
   *
   * @param policy the policy
   * @return this builder
   */
  public SafeRetryClientBuilder breakerPolicy(BreakerPolicy policy) {
    settings.breakerPolicy(policy);
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
    settings.retryBudget(policy);
    return this;
  }

  /**
   * Observes attempts, retries and breaker changes. Default: none.
   *
   * @param l the listener
   * @return this builder
   */
  public SafeRetryClientBuilder listener(SafeRetryListener l) {
    settings.listener(l);
    return this;
  }

  /**
   * The clock for deadlines, hints, intents and the breaker. Default: the UTC system clock.
   *
   * @param c the clock
   * @return this builder
   */
  public SafeRetryClientBuilder clock(Clock c) {
    settings.clock(c);
    return this;
  }

  /**
   * How the client waits between attempts. Default: {@link Sleeper#system()}.
   *
   * @param s the sleeper
   * @return this builder
   */
  public SafeRetryClientBuilder sleeper(Sleeper s) {
    settings.sleeper(s);
    return this;
  }

  /**
   * The jitter source, returning values in [0, 1). Default: a {@link SecureRandom}.
   *
   * @param random returns values in [0, 1)
   * @return this builder
   */
  public SafeRetryClientBuilder jitter(DoubleSupplier random) {
    settings.jitter(random);
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
    settings.maxResponseBytes(bytes);
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
    settings.asyncExecutor(executor);
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
    settings.asyncConcurrency(calls);
    return this;
  }

  /**
   * A request header that carries the attempt number ({@code 1} for the first attempt), for servers
   * that log retries, e.g. {@code "Idempotency-Attempt"}. It is not part of the intent's identity.
   * Must be a valid header name, and neither {@code X-Request-Id} nor the key's header. Default:
   * none (no such header is sent).
   *
   * @param headerName the header name, or null for none
   * @return this builder
   */
  public SafeRetryClientBuilder attemptHeader(String headerName) {
    settings.attemptHeader(headerName);
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
    settings.name(clientName);
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
    return new SafeRetryClient(ClientCore.create(ClientConfig.of(settings), parent));
  }

  @Override
  public String toString() {
    return "SafeRetryClientBuilder[" + settings + "]";
  }
}
