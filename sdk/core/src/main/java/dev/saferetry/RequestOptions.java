package dev.saferetry;

import dev.saferetry.codec.QueryParams;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.HttpText;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Per-call options: the caller's own idempotency key or intent id, path variables, query
 * parameters, extra headers, and overrides of the client's deadline, per-attempt timeout, maximum
 * attempts and API key. Overrides apply to this call only and share everything else of the client —
 * its connection pool, circuit breaker and retry budget — so there is no need to derive a client
 * per setting.
 *
 * <pre>{@code
 * RequestOptions options = RequestOptions.builder()
 *     .intentId("order-123/charge")
 *     .header("Stripe-Account", "acct_1")
 *     .query(QueryParams.of("expand[]", "customer"))
 *     .deadline(Duration.ofSeconds(10))
 *     .attemptTimeout(Duration.ofSeconds(3))
 *     .maxAttempts(2)
 *     .build();
 * }</pre>
 *
 * <p>Without options every call is its own intent with a freshly minted key. With an {@link
 * Builder#intentId intent id}, the client's key store remembers the key, so calling again with the
 * same id — in another thread, or after a restart with a durable store — reuses it. A caller's
 * {@link Builder#idempotencyKey key} always wins and is never replaced.
 *
 * <p>After a restart, {@link Builder#redrive} re-drives an intent listed by {@link
 * SafeRetryClient#pendingIntents()}: its intent id and recorded key, and a check that the client
 * and operation are the ones it was recorded for.
 *
 * <p>{@link #toBuilder()} copies everything but the key, the intent id and the re-driven intent; it
 * deliberately does not copy the key, the intent id or the re-driven intent: deriving options for a
 * new request must not reuse the old request's identity by accident.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class RequestOptions {
  private static final RequestOptions NONE = builder().build();

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

  private RequestOptions(Builder b) {
    this.query = b.query;
    this.deadline = b.deadline;
    this.attemptTimeout = b.attemptTimeout;
    this.maxAttempts = b.maxAttempts;
    this.apiKey = b.apiKey;
    this.keepBody = b.keepBody;
    this.idempotencyKey = b.idempotencyKey;
    this.intentId = b.intentId;
    this.redrive = b.redrive;
    this.pathParams = Map.copyOf(b.pathParams);
    this.headers = Map.copyOf(b.headers);
  }

  /**
   * Returns options with nothing set.
   *
   * @return options with nothing set
   */
  public static RequestOptions none() {
    return NONE;
  }

  /**
   * Returns a new builder.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder with everything of these options but the key, the intent id and the re-driven
   * intent. Copies; shares nothing.
   *
   * @return a builder with these options, without key or intent
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.pathParams.putAll(pathParams);
    b.headers.putAll(headers);
    b.query = query;
    b.deadline = deadline;
    b.attemptTimeout = attemptTimeout;
    b.maxAttempts = maxAttempts;
    b.apiKey = apiKey;
    b.keepBody = keepBody;
    return b;
  }

  /**
   * Returns the query parameters, in order; empty when none.
   *
   * @return the query parameters
   */
  public QueryParams query() {
    return query;
  }

  /**
   * Returns this call's deadline (all attempts and waits), or {@code null} for the retry policy's.
   *
   * @return the deadline, or null
   */
  public Duration deadline() {
    return deadline;
  }

  /**
   * Returns the longest one attempt may take, or {@code null} for no limit beyond the deadline.
   *
   * @return the per-attempt timeout, or null
   */
  public Duration attemptTimeout() {
    return attemptTimeout;
  }

  /**
   * Returns this call's maximum attempts, or 0 for the retry policy's.
   *
   * @return the maximum attempts, or 0
   */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Returns this call's API key, or {@code null} for the client's.
   *
   * @return the API key, or null
   */
  public String apiKey() {
    return apiKey;
  }

  /**
   * Returns whether the answer's raw body bytes are kept on the {@link ResponseView}.
   *
   * @return whether the body is kept
   */
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

  /**
   * Returns the caller's key, or {@code null} when the SDK mints one.
   *
   * @return the caller's key, or {@code null} when the SDK mints one
   */
  public IdempotencyKey idempotencyKey() {
    return idempotencyKey;
  }

  /**
   * Returns the intent id, or {@code null}.
   *
   * @return the intent id, or {@code null}
   */
  public String intentId() {
    return intentId;
  }

  /**
   * Returns the listed intent these options re-drive, or {@code null}.
   *
   * @return the listed intent these options re-drive, or {@code null}
   */
  public IntentRecord redrive() {
    return redrive;
  }

  /**
   * Returns the path variables.
   *
   * @return the path variables
   */
  public Map<String, String> pathParams() {
    return pathParams;
  }

  /**
   * Returns the extra headers.
   *
   * @return the extra headers
   */
  public Map<String, String> headers() {
    return headers;
  }

  /** Builds {@link RequestOptions}. Not thread-safe. */
  public static final class Builder {
    private IdempotencyKey idempotencyKey;
    private String intentId;
    private IntentRecord redrive;
    private final Map<String, String> pathParams = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private QueryParams query = QueryParams.empty();
    private Duration deadline;
    private Duration attemptTimeout;
    private int maxAttempts;
    private String apiKey;
    private boolean keepBody;

    private Builder() {}

    /**
     * Adds a query parameter; a name may repeat ({@code expand[]=a&expand[]=b}), and order is kept.
     * Values are percent-encoded. For an operation that carries a key, the query is part of the
     * intent's fingerprint. Default: none.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     */
    public Builder queryParam(String name, String value) {
      query = query.and(name, value);
      return this;
    }

    /**
     * Adds a whole-number query parameter in decimal, e.g. {@code limit=2}. Default: none.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     */
    public Builder queryParam(String name, long value) {
      query = query.and(name, value);
      return this;
    }

    /**
     * Sets the query parameters, replacing any set or added so far. Default: none.
     *
     * @param params the parameters
     * @return this builder
     */
    public Builder query(QueryParams params) {
      query = Objects.requireNonNull(params, "params");
      return this;
    }

    /**
     * Bounds this call — every attempt and wait — by {@code duration} instead of the retry policy's
     * deadline. Default: the policy's.
     *
     * @param duration a positive duration
     * @return this builder
     */
    public Builder deadline(Duration duration) {
      this.deadline = positive("deadline", duration);
      return this;
    }

    /**
     * Bounds each attempt by {@code duration} (and by what is left of the deadline); an attempt
     * that takes longer is cancelled and counts as a timeout, retried like any other. Default: no
     * limit beyond the deadline and the HTTP client's timeouts.
     *
     * @param duration a positive duration
     * @return this builder
     */
    public Builder attemptTimeout(Duration duration) {
      this.attemptTimeout = positive("attemptTimeout", duration);
      return this;
    }

    /**
     * Makes at most {@code attempts} attempts instead of the retry policy's maximum. Default: the
     * policy's.
     *
     * @param attempts at least 1
     * @return this builder
     */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be >= 1");
      }
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * Sends this call with another API key, in the client's key style (e.g. {@code Authorization:
     * Bearer}). Never logged or printed, and masked wherever the server echoes it. Default: the
     * client's.
     *
     * @param key 1 to 4,096 visible ASCII characters
     * @return this builder
     */
    public Builder apiKey(String key) {
      Objects.requireNonNull(key, "apiKey");
      if (key.isEmpty()
          || key.length() > 4096
          || !key.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
        throw new IllegalArgumentException("apiKey must be 1 to 4096 visible ASCII characters");
      }
      this.apiKey = key;
      return this;
    }

    /**
     * Keeps the answer's raw body bytes on the {@link ResponseView} of the result or exception.
     * Default: false.
     *
     * @param keep whether to keep the body
     * @return this builder
     */
    public Builder keepBody(boolean keep) {
      this.keepBody = keep;
      return this;
    }

    private static Duration positive(String what, Duration d) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive");
      }
      return d;
    }

    /**
     * Uses the caller's own key, validated now (before any I/O). Default: none, a random UUID v4 is
     * minted per intent.
     *
     * @param key the key
     * @return this builder
     * @throws IllegalArgumentException if the key is not 1–255 visible ASCII characters
     */
    public Builder idempotencyKey(String key) {
      this.idempotencyKey = IdempotencyKey.of(key);
      return this;
    }

    /**
     * Uses the caller's own key. Default: none.
     *
     * @param key the key
     * @return this builder
     */
    public Builder idempotencyKey(IdempotencyKey key) {
      this.idempotencyKey = Objects.requireNonNull(key, "key");
      return this;
    }

    /**
     * Names the logical operation, e.g. {@code "order-123/charge"}, so that every call with this id
     * reuses one key. Default: none.
     *
     * @param id the id
     * @return this builder
     * @throws IllegalArgumentException if blank, longer than 255 characters, not well-formed
     *     Unicode (an unpaired surrogate) or with control characters
     */
    public Builder intentId(String id) {
      IntentRecord.checkIntentId(id);
      this.intentId = id;
      return this;
    }

    /**
     * Re-drives a listed intent (from {@link SafeRetryClient#pendingIntents()}): sets its intent id
     * and its recorded key, so that the call can never mint a second key for it. The client checks,
     * before any I/O, that the intent belongs to its tenant and to the operation executed. Default:
     * none.
     *
     * <pre>{@code
     * client.execute(CREATE_CHARGE, params, RequestOptions.builder().redrive(intent).build());
     * }</pre>
     *
     * @param intent the intent
     * @return this builder
     */
    public Builder redrive(IntentRecord intent) {
      Objects.requireNonNull(intent, "intent");
      this.redrive = intent;
      this.intentId = intent.intentId();
      this.idempotencyKey = intent.key();
      return this;
    }

    /**
     * Sets a path variable, e.g. {@code pathParam("id", "ch_1")} for {@code /v1/charges/{id}}.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     */
    public Builder pathParam(String name, String value) {
      pathParams.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Adds a header to every attempt, validated now: before anything is recorded or sent. The
     * idempotency key and request id headers cannot be set this way. Default: none.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     * @throws IllegalArgumentException for {@code Idempotency-Key} or {@code X-Request-Id}, a name
     *     that is not 1 or more visible ASCII characters (without {@code :}), or a value with
     *     characters other than tab and printable ASCII (CR, LF, non-ASCII); the message names the
     *     header and the index, never the value
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.equals("idempotency-key") || lower.equals("x-request-id")) {
        throw new IllegalArgumentException(name + " is set by the SDK; use idempotencyKey()");
      }
      HttpText.headerName("header name", name);
      HttpText.headerValue(name, value);
      headers.put(name, value);
      return this;
    }

    /**
     * Returns the options.
     *
     * @return the options
     * @throws IllegalArgumentException if another intent id or key was set after {@link #redrive}
     */
    public RequestOptions build() {
      if (redrive != null
          && (!redrive.intentId().equals(intentId) || !redrive.key().equals(idempotencyKey))) {
        throw new IllegalArgumentException(
            "a re-driven intent keeps its own intent id and key; do not set others");
      }
      return new RequestOptions(this);
    }
  }
}
