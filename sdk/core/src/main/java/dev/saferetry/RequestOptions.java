package dev.saferetry;

import dev.saferetry.call.ResponseView;
import dev.saferetry.codec.QueryParams;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.HttpText;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Per-call options: the caller's own idempotency key or intent id, path variables, query
 * parameters, extra headers, and overrides of the client's deadline, per-attempt timeout, maximum
 * attempts and API key. Overrides apply to this call only and share everything else of the client —
 * its connection pool, circuit breaker and retry budget — so there is no need to derive a client
 * per setting.
 *
 * <pre>{@code
 * RequestOptions options = RequestOptions.none()
 *     .withIntentId("order-123/charge")
 *     .withHeader("Stripe-Account", "acct_1")
 *     .withQuery(QueryParams.of("expand[]", "customer"))
 *     .withDeadline(Duration.ofSeconds(10))
 *     .withAttemptTimeout(Duration.ofSeconds(3))
 *     .withMaxAttempts(2);
 * }</pre>
 *
 * <p>Without options every call is its own intent with a freshly minted key. With an {@link
 * #withIntentId intent id}, the client's key store remembers the key, so calling again with the
 * same id — in another thread, or after a restart with a durable store — reuses it. A caller's
 * {@link #withIdempotencyKey(String) key} always wins and is never replaced.
 *
 * <p>After a restart, {@link #withRedrive} re-drives an intent listed by {@link
 * SafeRetryClient#pendingIntents()}: its intent id and recorded key, and a check that the client
 * and operation are the ones it was recorded for.
 *
 * <p>{@link #withoutIdentity()} copies everything but the key, the intent id and the re-driven
 * intent: deriving options for a new request from it never reuses the old request's identity by
 * accident.
 *
 * <p>Instances are immutable and thread-safe; every {@code with...} method validates its argument
 * at once (before any I/O) and returns new options, leaving these alone.
 */
public final class RequestOptions {
  private static final RequestOptions NONE = new RequestOptions(new Copy());

  private final IdempotencyKey idempotencyKey;
  private final String intentId;
  private final IntentRecord redrive;
  private final Map<String, String> pathParams;
  private final Map<String, String> headers;
  private final QueryParams query;
  private final Duration deadline;
  private final Duration attemptTimeout;
  private final int maxAttempts;
  private final String apiKey;
  private final boolean keepBody;

  private RequestOptions(Copy c) {
    this.idempotencyKey = c.idempotencyKey;
    this.intentId = c.intentId;
    this.redrive = c.redrive;
    this.pathParams = c.pathParams;
    this.headers = c.headers;
    this.query = c.query;
    this.deadline = c.deadline;
    this.attemptTimeout = c.attemptTimeout;
    this.maxAttempts = c.maxAttempts;
    this.apiKey = c.apiKey;
    this.keepBody = c.keepBody;
  }

  // The fields of options being derived: these options' values, then the changes.
  private static final class Copy {
    IdempotencyKey idempotencyKey;
    String intentId;
    IntentRecord redrive;
    Map<String, String> pathParams = Map.of();
    Map<String, String> headers = Map.of();
    QueryParams query = QueryParams.empty();
    Duration deadline;
    Duration attemptTimeout;
    int maxAttempts;
    String apiKey;
    boolean keepBody;

    /** Nothing set. */
    Copy() {}

    Copy(RequestOptions o) {
      idempotencyKey = o.idempotencyKey;
      intentId = o.intentId;
      redrive = o.redrive;
      pathParams = o.pathParams;
      headers = o.headers;
      query = o.query;
      deadline = o.deadline;
      attemptTimeout = o.attemptTimeout;
      maxAttempts = o.maxAttempts;
      apiKey = o.apiKey;
      keepBody = o.keepBody;
    }
  }

  // Returns a copy of these options with what change sets changed.
  private RequestOptions copy(Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return new RequestOptions(c);
  }

  /** {@return options with nothing set: the start of every other} */
  public static RequestOptions none() {
    return NONE;
  }

  /**
   * {@return these options without the key, the intent id and the re-driven intent, for a new
   * request with the same path variables, query, headers and overrides}
   */
  public RequestOptions withoutIdentity() {
    return copy(
        c -> {
          c.idempotencyKey = null;
          c.intentId = null;
          c.redrive = null;
        });
  }

  /**
   * {@return these options with a query parameter added; a name may repeat ({@code
   * expand[]=a&expand[]=b}), and order is kept} Values are percent-encoded. For an operation that
   * carries a key, the query is part of the intent's fingerprint. Default: none.
   *
   * @param name the name
   * @param value the value
   */
  public RequestOptions withQueryParam(String name, String value) {
    return withQuery(query.and(name, value));
  }

  /**
   * {@return these options with a whole-number query parameter added in decimal, e.g. {@code
   * limit=2}} Default: none.
   *
   * @param name the name
   * @param value the value
   */
  public RequestOptions withQueryParam(String name, long value) {
    return withQuery(query.and(name, value));
  }

  /**
   * {@return these options with {@code params} as the query parameters, replacing any set or added
   * so far} Default: none.
   *
   * @param params the parameters
   */
  public RequestOptions withQuery(QueryParams params) {
    Objects.requireNonNull(params, "params");
    return copy(c -> c.query = params);
  }

  /**
   * {@return these options bounding this call — every attempt and wait — by {@code duration}
   * instead of the retry policy's deadline} Default: the policy's.
   *
   * @param duration a positive duration
   */
  public RequestOptions withDeadline(Duration duration) {
    return copy(c -> c.deadline = positive("deadline", duration));
  }

  /**
   * {@return these options bounding each attempt by {@code duration} (and by what is left of the
   * deadline); an attempt that takes longer is cancelled and counts as a timeout, retried like any
   * other} Default: no limit beyond the deadline and the HTTP client's timeouts.
   *
   * @param duration a positive duration
   */
  public RequestOptions withAttemptTimeout(Duration duration) {
    return copy(c -> c.attemptTimeout = positive("attemptTimeout", duration));
  }

  /**
   * {@return these options making at most {@code attempts} attempts instead of the retry policy's
   * maximum} Default: the policy's.
   *
   * @param attempts at least 1
   */
  public RequestOptions withMaxAttempts(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1");
    }
    return copy(c -> c.maxAttempts = attempts);
  }

  /**
   * {@return these options sending this call with another API key, in the client's key style (e.g.
   * {@code Authorization: Bearer})} Never logged or printed, and masked wherever the server echoes
   * it. Default: the client's.
   *
   * @param key 1 to 4,096 visible ASCII characters
   */
  public RequestOptions withApiKey(String key) {
    Objects.requireNonNull(key, "apiKey");
    if (key.isEmpty() || key.length() > 4096 || !key.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
      throw new IllegalArgumentException("apiKey must be 1 to 4096 visible ASCII characters");
    }
    return copy(c -> c.apiKey = key);
  }

  /**
   * {@return these options keeping, or not, the answer's raw body bytes on the {@link ResponseView}
   * of the result or exception} Default: false.
   *
   * @param keep whether to keep the body
   */
  public RequestOptions withKeepBody(boolean keep) {
    return copy(c -> c.keepBody = keep);
  }

  private static Duration positive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive");
    }
    return d;
  }

  /**
   * {@return these options with the caller's own key, validated now (before any I/O)} Default:
   * none, a random UUID v4 is minted per intent.
   *
   * @param key the key
   * @throws IllegalArgumentException if the key is not 1–255 visible ASCII characters, or differs
   *     from the key of a {@linkplain #withRedrive re-driven} intent
   */
  public RequestOptions withIdempotencyKey(String key) {
    return withIdempotencyKey(IdempotencyKey.of(key));
  }

  /**
   * {@return these options with the caller's own key} Default: none.
   *
   * @param key the key
   * @throws IllegalArgumentException if the key differs from the key of a {@linkplain #withRedrive
   *     re-driven} intent
   */
  public RequestOptions withIdempotencyKey(IdempotencyKey key) {
    Objects.requireNonNull(key, "key");
    keepsRedrive(intentId, key);
    return copy(c -> c.idempotencyKey = key);
  }

  /**
   * {@return these options naming the logical operation, e.g. {@code "order-123/charge"}, so that
   * every call with this id reuses one key} Default: none.
   *
   * @param id the id
   * @throws IllegalArgumentException if blank, longer than 255 characters, not well-formed Unicode
   *     (an unpaired surrogate), with control characters, or not the id of a {@linkplain
   *     #withRedrive re-driven} intent
   */
  public RequestOptions withIntentId(String id) {
    IntentRecord.checkIntentId(id);
    keepsRedrive(id, idempotencyKey);
    return copy(c -> c.intentId = id);
  }

  /**
   * {@return these options re-driving a listed intent (from {@link
   * SafeRetryClient#pendingIntents()}): its intent id and its recorded key, so that the call can
   * never mint a second key for it} The client checks, before any I/O, that the intent belongs to
   * its tenant and to the operation executed. Default: none.
   *
   * <pre>{@code
   * client.execute(CREATE_CHARGE, params, RequestOptions.none().withRedrive(intent));
   * }</pre>
   *
   * @param intent the intent
   */
  public RequestOptions withRedrive(IntentRecord intent) {
    Objects.requireNonNull(intent, "intent");
    return copy(
        c -> {
          c.idempotencyKey = intent.key();
          c.intentId = intent.intentId();
          c.redrive = intent;
        });
  }

  private void keepsRedrive(String id, IdempotencyKey key) {
    if (redrive != null && (!redrive.intentId().equals(id) || !redrive.key().equals(key))) {
      throw new IllegalArgumentException(
          "a re-driven intent keeps its own intent id and key; do not set others");
    }
  }

  /**
   * {@return these options with a path variable, e.g. {@code withPathParam("id", "ch_1")} for
   * {@code /v1/charges/{id}}}
   *
   * @param name the name
   * @param value the value
   */
  public RequestOptions withPathParam(String name, String value) {
    Map<String, String> params = new LinkedHashMap<>(pathParams);
    params.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return copy(c -> c.pathParams = Map.copyOf(params));
  }

  /**
   * {@return these options adding a header to every attempt, validated now: before anything is
   * recorded or sent} The idempotency key and request id headers cannot be set this way. Default:
   * none.
   *
   * @param name the name
   * @param value the value
   * @throws IllegalArgumentException for {@code Idempotency-Key} or {@code X-Request-Id}, a name
   *     that is not 1 or more visible ASCII characters (without {@code :}), or a value with
   *     characters other than tab and printable ASCII (CR, LF, non-ASCII); the message names the
   *     header and the index, never the value
   */
  public RequestOptions withHeader(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("idempotency-key") || lower.equals("x-request-id")) {
      throw new IllegalArgumentException(name + " is set by the SDK; use withIdempotencyKey()");
    }
    HttpText.headerName("header name", name);
    HttpText.headerValue(name, value);
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put(name, value);
    return copy(c -> c.headers = Map.copyOf(all));
  }

  /** {@return the query parameters, in order; empty when none} */
  public QueryParams query() {
    return query;
  }

  /**
   * {@return this call's deadline (all attempts and waits), or {@code null} for the retry policy's}
   */
  public Duration deadline() {
    return deadline;
  }

  /**
   * {@return the longest one attempt may take, or {@code null} for no limit beyond the deadline}
   */
  public Duration attemptTimeout() {
    return attemptTimeout;
  }

  /** {@return this call's maximum attempts, or 0 for the retry policy's} */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** {@return this call's API key, or {@code null} for the client's} */
  public String apiKey() {
    return apiKey;
  }

  /** {@return whether the answer's raw body bytes are kept on the {@link ResponseView}} */
  public boolean keepBody() {
    return keepBody;
  }

  /** Prints what is set, never the API key or header values. */
  @Override
  public String toString() {
    return "RequestOptions[intent="
        + intentId
        + ", headers="
        + headers.keySet()
        + ", query="
        + query.names()
        + (apiKey == null ? "" : ", apiKey=[redacted]")
        + "]";
  }

  /** {@return the caller's key, or {@code null} when the SDK mints one} */
  public IdempotencyKey idempotencyKey() {
    return idempotencyKey;
  }

  /** {@return the intent id, or {@code null}} */
  public String intentId() {
    return intentId;
  }

  /** {@return the listed intent these options re-drive, or {@code null}} */
  public IntentRecord redrive() {
    return redrive;
  }

  /** {@return the path variables} */
  public Map<String, String> pathParams() {
    return pathParams;
  }

  /** {@return the extra headers} */
  public Map<String, String> headers() {
    return headers;
  }
}
