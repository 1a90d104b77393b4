package dev.saferetry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * The internal seam between a client and its outbox relay: prepares a call's request for storing
 * (key minted, exact bytes fixed, fingerprint computed) and sends a stored request later through
 * the very same {@link RealCall} steps — breaker, retries, budget, listener — with its stored key
 * and bytes. Not API: public only for {@code dev.saferetry.jdbc}, and not exported by the module.
 *
 * <p>Thread-safe (stateless).
 */
public final class StoredCall {
  private static volatile Function<SafeRetryClient, ClientCore> cores;

  private StoredCall() {}

  /** Called once by {@code SafeRetryClient}'s initializer: how to reach a client's parts. */
  public static void install(Function<SafeRetryClient, ClientCore> access) {
    cores = access;
  }

  /** The parts of a client. */
  public static ClientCore core(SafeRetryClient client) {
    return cores.apply(Objects.requireNonNull(client, "client"));
  }

  /**
   * A call prepared for the outbox: what to record and the exact request to send.
   *
   * @param record the pending intent to record (a fresh key, the request's fingerprint)
   * @param method the HTTP method
   * @param target path and query relative to the base URL, without a leading slash
   * @param keyPlacement where the client puts the key
   * @param headers the client's default headers and the call's own headers
   * @param contentType the body's media type, or null
   * @param body the exact body bytes (with the key in them when the key goes in the body), or null
   */
  public record Prepared(
      IntentRecord record,
      String method,
      String target,
      KeyPlacement keyPlacement,
      Map<String, String> headers,
      String contentType,
      byte[] body) {}

  /**
   * Prepares a call of {@code client} for storing: validated and encoded as {@code execute} would,
   * with the caller's key or a fresh one, recorded as of the client's clock.
   *
   * @throws IllegalArgumentException if the call names no intent, or cannot be sent as given
   */
  public static <Q> Prepared prepare(
      SafeRetryClient client, Operation<Q, ?> op, Q body, RequestOptions options) {
    ClientCore core = core(client);
    CallParts parts = core.parts();
    if (!op.carriesKey() || options.intentId() == null) {
      throw new IllegalArgumentException(
          "only a call with an idempotency key and an intent id can be recorded for the relay");
    }
    if (options.apiKey() != null) {
      throw new IllegalArgumentException(
          "a per-call API key is never stored; relay such calls with a client built with that key");
    }
    PreparedRequest p = parts.requests().prepare(op, body, options, null);
    IntentScope scope = parts.intents().scope(op.name());
    IntentRecord record =
        IntentRecord.pending(
            scope,
            options.intentId(),
            p.key(),
            p.fingerprint(),
            parts.intents().now(),
            parts.config().intentRetention());
    HttpUrl base = parts.config().baseUrl();
    String basePath =
        base.encodedPath().endsWith("/") ? base.encodedPath() : base.encodedPath() + "/";
    String path = p.url().encodedPath();
    if (!path.startsWith(basePath) && !(path + "/").equals(basePath)) {
      throw new IllegalArgumentException("the call's URL leaves the base URL's path");
    }
    String target =
        path.substring(Math.min(basePath.length(), path.length()))
            + (p.url().encodedQuery() == null ? "" : "?" + p.url().encodedQuery());
    EncodedBody b = p.body();
    // The client's default headers (an API version) as they are now, then the call's own.
    Map<String, String> headers = new LinkedHashMap<>();
    parts
        .config()
        .shape()
        .defaultHeaders()
        .forEach(
            (name, value) -> {
              if (options.headers().keySet().stream().noneMatch(name::equalsIgnoreCase)) {
                headers.put(name, value);
              }
            });
    headers.putAll(options.headers());
    return new Prepared(
        record,
        op.method(),
        target,
        parts.config().keyPlacement(),
        headers,
        b == null ? null : b.contentType(),
        b == null ? null : b.bytes());
  }

  /**
   * How a stored request's call ended.
   *
   * @param completion the outcome to record (SUCCEEDED or FAILED), or null when none is known
   * @param result the call's result, or null
   * @param error how the call ended otherwise, or null
   * @param leaseLost whether the call was stopped because its lease could not be renewed
   */
  public record Sent(
      IntentRecord completion,
      CallResult<JsonNode> result,
      SafeRetryException error,
      boolean leaseLost) {}

  /**
   * Sends a stored request for {@code record} through {@code client}: same breaker, retries, budget
   * and listener as any call, the record's key on every attempt, placed as {@code placement} says
   * (in a header the client sets last; in the body, where the stored bytes carry it). The client
   * adds its own credentials after the stored headers, so none of them replaces its credential.
   * Nothing is written to the key store: the outcome is handed back for the caller to record
   * (fenced by its lease). Before each attempt {@code renew} is asked to extend the lease; when it
   * answers false the call stops and nothing more is sent.
   *
   * @param url the URL to send to, already checked to stay under the client's base URL
   */
  public static Sent send(
      SafeRetryClient client,
      IntentRecord record,
      String method,
      HttpUrl url,
      KeyPlacement placement,
      Map<String, String> headers,
      String contentType,
      byte[] body,
      BooleanSupplier renew) {
    ClientCore core = core(client);
    CallParts parts = core.parts();
    ClientConfig config = parts.config();
    Operation<Void, JsonNode> op =
        Operation.of(method, "/{stored}", Void.class, TypeRef.of(JsonNode.class))
            .named(record.scope().operation())
            .carryingKey(true);
    RequestOptions options =
        RequestOptions.builder().intentId(record.intentId()).idempotencyKey(record.key()).build();
    Recorder recorder = new Recorder(record, client.keyStore());
    AtomicReference<RealCall<JsonNode>> call = new AtomicReference<>();
    boolean[] lost = {false};
    SafeRetryListener renewing =
        new SafeRetryListener() {
          @Override
          public void onAttemptStart(AttemptStarted event) {
            if (!renew.getAsBoolean()) {
              lost[0] = true;
              call.get().cancel();
            }
          }
        };
    CallParts own =
        new CallParts(
            config,
            parts.requests(),
            new Intents(
                recorder, record.scope().tenant(), config.intentRetention(), config.clock()),
            parts.wire(),
            parts.breaker(),
            parts.retry(),
            parts.budget(),
            SafeRetryListener.composite(renewing, parts.listener()),
            parts.io(),
            parts.reader());
    PreparedRequest request =
        request(
            config,
            op,
            record.intentId(),
            record.key(),
            record.fingerprint(),
            url,
            placement,
            headers,
            contentType,
            body);
    call.set(new RealCall<>(own, op, null, options, request));
    try {
      CallResult<JsonNode> result = call.get().execute();
      return new Sent(recorder.completion.get(), result, null, lost[0]);
    } catch (SafeRetryException e) {
      return new Sent(recorder.completion.get(), null, e, lost[0]);
    }
  }

  private static PreparedRequest request(
      ClientConfig config,
      Operation<?, ?> op,
      String intentId,
      IdempotencyKey key,
      String fingerprint,
      HttpUrl url,
      KeyPlacement placement,
      Map<String, String> headers,
      String contentType,
      byte[] body) {
    ApiShape shape = config.shape();
    Request.Builder b =
        new Request.Builder()
            .header("User-Agent", shape.userAgent())
            .header("Accept", "application/json");
    shape.defaultHeaders().forEach(b::header); // the stored headers, which include them, win
    headers.forEach(b::header);
    // The client's own credentials come after the stored headers, so none of those replaces them;
    // among themselves in the order of any call (RequestFactory): API key, then default headers.
    String credential = shape.apiKeyStyle().headerName();
    if (config.apiKey() != null) {
      b.header(credential, shape.apiKeyStyle().headerValue(config.apiKey()));
    }
    shape
        .defaultHeaders()
        .forEach(
            (name, value) -> {
              if (name.equalsIgnoreCase(credential) || Redaction.isCredentialHeader(name)) {
                b.header(name, value);
              }
            });
    if (op.carriesKey() && !placement.inBody()) {
      b.header(placement.name(), placement.headerValue(key));
    }
    EncodedBody encoded =
        body == null
            ? null
            : EncodedBody.of(body, contentType == null ? "application/json" : contentType);
    Redaction redaction =
        Redaction.ofApiKey(config.apiKey())
            .withHeaders(shape.defaultHeaders())
            .withHeaders(headers);
    return new PreparedRequest(
        op,
        url,
        intentId,
        op.carriesKey() ? key : null,
        fingerprint,
        encoded,
        b,
        redaction,
        config.attemptHeader());
  }

  /**
   * Sends a GET without a key (a lookup, for a reconciler) to {@code target}, relative to the base
   * URL, through {@code client}'s retries and breaker, with {@code headers} over the client's
   * default headers (the scope of the intent looked up, e.g. {@code Stripe-Account}).
   *
   * @throws SafeRetryException how the lookup failed
   */
  public static CallResult<JsonNode> lookup(
      SafeRetryClient client, String target, Map<String, String> headers) {
    ClientCore core = core(client);
    CallParts parts = core.parts();
    Operation<Void, JsonNode> op =
        Operation.get("/{stored}", TypeRef.of(JsonNode.class)).named("lookup");
    String base = parts.config().baseUrl().toString();
    HttpUrl url = HttpUrl.get(base.endsWith("/") ? base + target : base + "/" + target);
    PreparedRequest request =
        request(
            parts.config(),
            op,
            null,
            null,
            null,
            url,
            parts.config().keyPlacement(),
            Map.copyOf(headers),
            null,
            null);
    return new RealCall<>(parts, op, null, RequestOptions.none(), request).execute();
  }

  /**
   * The key store a stored call sees: its intent is recorded already (the relay's lease holds it),
   * and its outcome is captured for the relay to record under that lease.
   */
  private static final class Recorder implements KeyStore {
    private final IntentRecord record;
    private final KeyStore store;
    private final AtomicReference<IntentRecord> completion = new AtomicReference<>();

    Recorder(IntentRecord record, KeyStore store) {
      this.record = record;
      this.store = store;
    }

    /**
     * The real store's time floor (a database's clock): a relay whose own clock runs behind must
     * not send an intent the fleet already considers expired with its stale key.
     */
    @Override
    public Instant expiryTime(Instant clock) {
      return store.expiryTime(clock);
    }

    @Override
    public BeginResult begin(IntentRecord candidate) {
      return BeginResult.existing(record);
    }

    @Override
    public void complete(IntentRecord completed) {
      completion.set(completed);
    }

    @Override
    public Optional<IntentRecord> find(IntentScope scope, String intentId) {
      return Optional.of(record);
    }

    @Override
    public List<IntentRecord> pending() {
      return List.of(record);
    }

    @Override
    public boolean abandon(IntentScope scope, String intentId) {
      return false;
    }

    @Override
    public int purgeExpired(Instant now) {
      return 0;
    }

    @Override
    public void close() {}
  }
}
