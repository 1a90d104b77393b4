package dev.saferetry;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.ClientSettings;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Per-call options: the caller's own idempotency key or intent id, path variables and extra
 * headers.
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
 * <p>{@link #toBuilder()} deliberately does not copy the key, the intent id or the re-driven
 * intent: deriving options for a new request must not reuse the old request's identity by accident.
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

  private RequestOptions(Builder b) {
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
   * Returns a builder with this object's path variables and headers, but no key or intent.
   *
   * @return a builder with this object's path variables and headers, but no key or intent
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.pathParams.putAll(pathParams);
    b.headers.putAll(headers);
    return b;
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

    private Builder() {}

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
      ClientSettings.headerName("header name", name);
      ClientSettings.headerValue(name, value);
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
