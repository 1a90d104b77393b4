package dev.saferetry.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.codec.PathTemplate;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.KeyPlacement;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * A call ready to send: URL, headers and body bytes fixed once. Every attempt re-sends these same
 * bytes with the same key; only the request id differs per attempt.
 */
final class PreparedCall {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
  private static final String USER_AGENT = "saferetry-java/0.1";

  final Operation<?, ?> op;
  final HttpUrl url;
  private final Object body;
  private final RequestOptions options;
  private final ObjectMapper mapper;
  private JsonNode tree;
  private byte[] bodyBytes;
  private Request base;

  private PreparedCall(
      Operation<?, ?> op, HttpUrl url, Object body, RequestOptions o, ObjectMapper mapper) {
    this.op = op;
    this.url = url;
    this.body = body;
    this.options = o;
    this.mapper = mapper;
  }

  /** Expands the path; validates everything before any I/O. */
  static PreparedCall of(
      ClientConfig config, Operation<?, ?> op, HttpUrl url, Object body, RequestOptions options) {
    PreparedCall call = new PreparedCall(op, url, body, options, config.mapper());
    KeyPlacement placement = config.keyPlacement();
    if (op.carriesKey() && placement.inBody() && !call.tree().isObject()) {
      throw new IllegalArgumentException(
          "the idempotency key goes into the body, so the request must be a JSON object");
    }
    if (op.carriesKey() && !placement.inBody()) {
      for (String name : options.headers().keySet()) {
        if (name.equalsIgnoreCase(placement.name())) {
          throw new IllegalArgumentException(
              name + " carries the idempotency key; use RequestOptions.idempotencyKey()");
        }
      }
    }
    return call;
  }

  private JsonNode tree() {
    if (tree == null) {
      tree = body == null ? mapper.createObjectNode() : mapper.valueToTree(body);
    }
    return tree;
  }

  /**
   * Returns the request's fingerprint: hex SHA-256 of method, path and canonical JSON body.
   * Computed only for intents, which are the only calls that compare fingerprints.
   */
  String fingerprint() {
    String path = url.encodedPath() + (url.encodedQuery() == null ? "" : "?" + url.encodedQuery());
    return Json.fingerprint(mapper, op.method(), path, tree());
  }

  static HttpUrl expand(HttpUrl base, String template, Map<String, String> params) {
    HttpUrl.Builder b = base.newBuilder();
    int size = base.pathSize();
    if (size > 0 && base.pathSegments().get(size - 1).isEmpty()) {
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

  /** Fixes the key: serialises the body once and builds the request every attempt copies. */
  void bind(ClientConfig config, IdempotencyKey key) {
    KeyPlacement placement = config.keyPlacement();
    Request.Builder b =
        new Request.Builder()
            .url(url)
            .header("User-Agent", USER_AGENT)
            .header("Accept", "application/json");
    if (config.apiKey() != null) {
      b.header("Authorization", "Bearer " + config.apiKey());
    }
    options.headers().forEach(b::header);
    if (op.carriesKey()) {
      try {
        if (placement.inBody()) {
          bodyBytes =
              mapper.writeValueAsBytes(Json.withField(tree(), placement.name(), key.value()));
        } else {
          b.header(placement.name(), placement.headerValue(key));
          bodyBytes =
              tree != null
                  ? mapper.writeValueAsBytes(tree)
                  : mapper.writeValueAsBytes(body == null ? tree() : body);
        }
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("request body cannot be serialised to JSON", e);
      }
      b.method(op.method(), RequestBody.create(bodyBytes, JSON));
    } else {
      b.method(op.method(), null);
    }
    base = b.build();
  }

  /** Returns the bytes every attempt sends (null for a GET). */
  byte[] bodyBytes() {
    return bodyBytes;
  }

  /** Returns the request of one attempt: the same bytes and key, a fresh request id. */
  Request.Builder forAttempt(String requestId) {
    return base.newBuilder().header("X-Request-Id", requestId);
  }

  static String newRequestId(IdempotencyKey key) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    String id =
        "req_"
            + Long.toHexString(r.nextLong() | Long.MIN_VALUE)
            + Long.toHexString(r.nextLong() | Long.MIN_VALUE);
    return key != null && id.equals(key.value()) ? newRequestId(key) : id;
  }
}
