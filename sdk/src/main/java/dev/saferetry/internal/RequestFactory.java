package dev.saferetry.internal;

import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.codec.PathTemplate;
import dev.saferetry.codec.QueryParams;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.internal.codec.Fingerprint;
import dev.saferetry.internal.codec.JsonCodec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * Turns an operation, a body and per-call options into a {@link PreparedRequest}: everything is
 * validated and encoded here, before an intent is recorded or a byte is sent. One per client;
 * thread-safe.
 */
final class RequestFactory {
  private static final String USER_AGENT = "saferetry-java/0.1";
  private static final Map<String, Object> NO_FIELDS = Map.of();

  private final HttpUrl baseUrl;
  private final String apiKey;
  private final KeyPlacement placement;
  private final BodyCodec codec;
  private final Redaction redaction;
  private final String attemptHeader;

  /** Expanded URLs of templates without variables: the same for every call. */
  private final ConcurrentHashMap<String, HttpUrl> fixedUrls = new ConcurrentHashMap<>();

  RequestFactory(ClientConfig config, Redaction redaction) {
    this.baseUrl = config.baseUrl();
    this.apiKey = config.apiKey();
    this.placement = config.keyPlacement();
    this.codec = JsonCodec.of(config.mapper());
    this.redaction = redaction;
    this.attemptHeader = config.attemptHeader();
  }

  /**
   * Prepares a call with a key: the caller's, or a fresh one.
   *
   * @throws IllegalArgumentException if anything of the request cannot be sent as given
   */
  PreparedRequest prepare(Operation<?, ?> op, Object body, RequestOptions options) {
    checkHeaders(op, options);
    HttpUrl url =
        op.pathTemplate().indexOf('{') < 0
            ? fixedUrls.computeIfAbsent(op.pathTemplate(), t -> expand(t, Map.of()))
            : expand(op.pathTemplate(), options.pathParams());
    IdempotencyKey key = null;
    if (op.carriesKey()) {
      key = options.idempotencyKey() != null ? options.idempotencyKey() : IdempotencyKey.random();
    }
    String fingerprint = null;
    if (op.carriesKey() && options.intentId() != null) {
      String path =
          url.encodedPath() + (url.encodedQuery() == null ? "" : "?" + url.encodedQuery());
      fingerprint =
          Fingerprint.sha256Hex(
              Fingerprint.input(op.method(), path, QueryParams.empty(), Map.of(), codec, body));
    }
    return build(op, url, body, options, key, fingerprint);
  }

  /** Returns the same request with another key: the one its intent was recorded with. */
  PreparedRequest withKey(
      PreparedRequest prepared, Object body, RequestOptions options, IdempotencyKey key) {
    return build(prepared.operation(), prepared.url(), body, options, key, prepared.fingerprint());
  }

  private PreparedRequest build(
      Operation<?, ?> op,
      HttpUrl url,
      Object body,
      RequestOptions options,
      IdempotencyKey key,
      String fingerprint) {
    Request.Builder headers =
        new Request.Builder().header("User-Agent", USER_AGENT).header("Accept", "application/json");
    if (apiKey != null) {
      headers.header("Authorization", "Bearer " + apiKey);
    }
    options.headers().forEach(headers::header);
    EncodedBody encoded = null;
    if (key != null) {
      Object value = body == null ? NO_FIELDS : body;
      if (placement.inBody()) {
        encoded = codec.encode(body, placement.name(), key.value());
      } else {
        headers.header(placement.name(), placement.headerValue(key));
        encoded = codec.encode(value);
      }
    }
    return new PreparedRequest(
        op,
        url,
        options.intentId(),
        key,
        fingerprint,
        encoded,
        headers,
        redaction.withHeaders(options.headers()),
        attemptHeader);
  }

  /** A call header may not replace the key's own header or the attempt-number header. */
  private void checkHeaders(Operation<?, ?> op, RequestOptions options) {
    for (String name : options.headers().keySet()) {
      if (op.carriesKey() && !placement.inBody() && name.equalsIgnoreCase(placement.name())) {
        throw new IllegalArgumentException(
            name + " carries the idempotency key; use RequestOptions.idempotencyKey()");
      }
      if (attemptHeader != null && name.equalsIgnoreCase(attemptHeader)) {
        throw new IllegalArgumentException(
            name + " carries the attempt number; it is set by the SDK");
      }
    }
  }

  private HttpUrl expand(String template, Map<String, String> params) {
    HttpUrl.Builder b = baseUrl.newBuilder();
    int size = baseUrl.pathSize();
    if (size > 0 && baseUrl.pathSegments().get(size - 1).isEmpty()) {
      b.removePathSegment(size - 1);
    }
    for (String segment : template.substring(1).split("/", -1)) {
      if (segment.startsWith("{") && segment.endsWith("}")) {
        String name = segment.substring(1, segment.length() - 1);
        String value = params.get(name);
        if (value == null) {
          throw new IllegalArgumentException("missing path parameter '" + name + "'");
        }
        b.addEncodedPathSegment(segment(name, value));
      } else {
        b.addPathSegment(segment);
      }
    }
    return b.build();
  }

  /** One segment, always: '/', '%', '?', '#' are encoded; '', '.', '..' are refused. */
  private static String segment(String name, String value) {
    try {
      return PathTemplate.encodeSegment(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "path parameter '" + name + "' cannot be one segment: " + e.getMessage(), e);
    }
  }
}
