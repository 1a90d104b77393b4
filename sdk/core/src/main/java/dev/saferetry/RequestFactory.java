package dev.saferetry;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.codec.QueryParams;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.internal.Fingerprint;
import dev.saferetry.internal.Redaction;
import dev.saferetry.internal.codec.SdkCodec;
import dev.saferetry.internal.storedrequest.StoredHeaders;
import dev.saferetry.internal.storedrequest.StoredTargets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * Turns an operation, a body and per-call options into a {@link PreparedRequest}: everything is
 * validated and encoded here — URL, path variables, query, headers, the body through the
 * operation's or the client's codec, and for an intent its fingerprint — before an intent is
 * recorded or a byte is sent. One per client; thread-safe.
 */
final class RequestFactory {
  private static final Map<String, Object> NO_FIELDS = Map.of();

  private final HttpUrl baseUrl;
  private final KeyPlacement clientPlacement;
  private final ClientConfig config;
  private final Redaction redaction;
  private final String attemptHeader;

  // clientHeaders(String) with the client's API key: built once, copied per request.
  private final Headers clientHeaders;

  // Expanded URLs of templates without variables and calls without query: the same every call.
  private final ConcurrentHashMap<String, HttpUrl> fixedUrls = new ConcurrentHashMap<>();

  RequestFactory(ClientConfig config, Redaction redaction) {
    this.baseUrl = config.baseUrl();
    this.clientPlacement = config.keyPlacement();
    this.config = config;
    this.redaction = redaction;
    this.attemptHeader = config.attemptHeader();
    this.clientHeaders = clientHeaders(config.apiKey());
  }

  // The headers every request of this client starts with, in this order (a later one replaces an
  // earlier one of the same name): User-Agent, Accept, the API key in the client's style, the
  // default headers.
  private Headers clientHeaders(String credential) {
    Headers.Builder b = new Headers.Builder();
    b.set("User-Agent", config.userAgent()).set("Accept", "application/json");
    ApiKeyStyle style = config.apiKeyStyle();
    if (credential != null) {
      b.set(style.headerName(), style.headerValue(credential));
    }
    config.headers().forEach(b::set);
    return b.build();
  }

  /**
   * Prepares a call with a key: the caller's, or a fresh one.
   *
   * @param link a URL to send to instead of the operation's path and the options' query (a
   *     next-page link, already checked to stay within the base URL), or null
   * @throws IllegalArgumentException if anything of the request cannot be sent as given
   */
  PreparedRequest prepare(Operation<?, ?> op, Object body, RequestOptions options, HttpUrl link) {
    checkHeaders(op, options);
    if (body != null && !op.takesBody()) {
      throw new IllegalArgumentException(op.method() + " sends no body; pass null");
    }
    BodyCodec codec = codec(op);
    KeyPlacement placement = placement(op);
    if (op.carriesKey() && placement.inBody() && !codec.canAddTopLevelField()) {
      throw new IllegalArgumentException(
          "the key goes in a body field, which the codec " + codec + " cannot add");
    }
    HttpUrl url = link != null ? link : url(op, options);
    IdempotencyKey key = null;
    if (op.carriesKey()) {
      int max = op.keyMaxLength() > 0 ? op.keyMaxLength() : config.keyMaxLength();
      key = options.idempotencyKey() != null ? options.idempotencyKey() : minted(max);
      if (max > 0 && key.value().length() > max) {
        throw new IllegalArgumentException(
            "the idempotency key is longer than the provider's limit of " + max + " characters");
      }
    }
    String fingerprint = null;
    EncodedBody encoded = null;
    if (op.carriesKey() && options.intentId() != null) {
      byte[] canonical = null;
      if (body != null) {
        if (!placement.inBody() && codec instanceof SdkCodec) {
          // The built-in codecs' encoding is canonical: encode once, for the wire and identity.
          encoded = codec.encode(body);
          canonical = encoded.bytes();
        } else {
          canonical = codec.canonical(body);
        }
      }
      HttpUrl base =
          link != null
              ? link.newBuilder().query(null).build()
              : options.query().isEmpty() ? url : baseQueryOnly(url);
      String path =
          base.encodedPath() + (base.encodedQuery() == null ? "" : "?" + base.encodedQuery());
      QueryParams query = link != null ? linkQuery(link) : options.query();
      Map<String, String> identity = identityValues(op, options);
      fingerprint =
          Fingerprint.sha256Hex(
              Fingerprint.input(
                  op.method(), path, query, identity, codec.contentType(), canonical));
    }
    return build(op, url, body, options, key, fingerprint, encoded);
  }

  // A fresh key: a random UUID, written without its dashes (32 hex digits, the same 122 random
  // bits) when the limit is below a UUID's 36 characters.
  private static IdempotencyKey minted(int max) {
    IdempotencyKey key = IdempotencyKey.random();
    return max > 0 && max < key.value().length() && max >= 32
        ? IdempotencyKey.of(key.value().replace("-", ""))
        : key;
  }

  /** Returns the same request with another key: the one its intent was recorded with. */
  PreparedRequest withKey(
      PreparedRequest prepared, Object body, RequestOptions options, IdempotencyKey key) {
    return build(
        prepared.operation(), prepared.url(), body, options, key, prepared.fingerprint(), null);
  }

  /**
   * Prepares the request of an intent recorded earlier with {@code stored}: the stored headers over
   * this client's (which sets its own credentials, never the stored request), the intent's key
   * where the stored request says, whatever this client does with its own calls, and the stored
   * bytes.
   *
   * @param options the call's options: the intent's id and key, nothing else
   * @throws IllegalArgumentException if it cannot be sent exactly as stored through this client:
   *     its target leaves the base URL after normalisation, a stored header or the key's header is
   *     one this client sets itself (its credential, its per-attempt headers), or a body that
   *     should carry the key does not carry exactly the intent's key; nothing is sent
   */
  PreparedRequest stored(
      Operation<?, ?> op, RequestOptions options, String fingerprint, StoredRequest stored) {
    IdempotencyKey key = options.idempotencyKey();
    KeyPlacement where = stored.keyPlacement();
    Set<String> own = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    own.add(config.apiKeyStyle().headerName());
    own.add("X-Request-Id");
    if (attemptHeader != null) {
      own.add(attemptHeader);
    }
    config.headers().keySet().stream().filter(StoredHeaders::isCredential).forEach(own::add);
    for (String name : stored.headers().keySet()) {
      if (own.contains(name)) {
        throw new IllegalArgumentException(
            "stored header " + name + " would replace one the relay's client sets itself");
      }
    }
    if (where.inBody()) {
      stored.checkKey(key);
    } else if (own.contains(where.name())) {
      throw new IllegalArgumentException(
          "the key's header " + where.name() + " is one the relay's client sets itself");
    }
    HttpUrl url = StoredTargets.resolve(baseUrl, stored.target());
    Request.Builder headers = new Request.Builder().headers(clientHeaders);
    stored.headers().forEach(headers::header);
    if (!where.inBody()) {
      headers.header(where.name(), where.headerValue(key));
    }
    byte[] bytes = stored.body();
    EncodedBody body =
        bytes == null
            ? null
            : EncodedBody.of(
                bytes, stored.contentType() == null ? "application/json" : stored.contentType());
    return new PreparedRequest(
        op,
        url,
        options.intentId(),
        key,
        fingerprint,
        body,
        headers,
        redaction.withHeaders(stored.headers()),
        attemptHeader);
  }

  /** Where the operation's key goes: its own placement, or the client's. */
  KeyPlacement placement(Operation<?, ?> op) {
    return op.keyPlacement().orElse(clientPlacement);
  }

  private BodyCodec codec(Operation<?, ?> op) {
    return op.codec() != null ? op.codec() : config.codec();
  }

  private PreparedRequest build(
      Operation<?, ?> op,
      HttpUrl url,
      Object body,
      RequestOptions options,
      IdempotencyKey key,
      String fingerprint,
      EncodedBody preEncoded) {
    Request.Builder headers =
        new Request.Builder()
            .headers(options.apiKey() == null ? clientHeaders : clientHeaders(options.apiKey()));
    op.headers().forEach(headers::header);
    options.headers().forEach(headers::header);
    BodyCodec codec = codec(op);
    KeyPlacement placement = placement(op);
    EncodedBody encoded = null;
    if (key != null && placement.inBody()) {
      encoded = codec.encode(body == null ? NO_FIELDS : body, placement.name(), key.value());
    } else {
      if (key != null) {
        headers.header(placement.name(), placement.headerValue(key));
      }
      if (body != null) {
        encoded = preEncoded != null ? preEncoded : codec.encode(body);
      }
    }
    Redaction r = redaction.withHeaders(options.headers());
    if (options.apiKey() != null) {
      r = r.withSecret(options.apiKey());
    }
    return new PreparedRequest(
        op, url, options.intentId(), key, fingerprint, encoded, headers, r, attemptHeader);
  }

  // The values of the headers that belong to the intent's identity, as they will be sent.
  private Map<String, String> identityValues(Operation<?, ?> op, RequestOptions options) {
    if (config.identityHeaders().isEmpty() && op.identityHeaders().isEmpty()) {
      return Map.of();
    }
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.addAll(config.identityHeaders());
    names.addAll(op.identityHeaders());
    if (names.isEmpty()) {
      return Map.of();
    }
    Map<String, String> sent = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    sent.putAll(config.headers());
    sent.putAll(op.headers());
    sent.putAll(options.headers());
    Map<String, String> values = new LinkedHashMap<>();
    for (String name : names) {
      String value = sent.get(name);
      if (value != null) {
        values.put(name, value);
      }
    }
    return values;
  }

  // A call header may not replace the key's own header or the attempt-number header.
  private void checkHeaders(Operation<?, ?> op, RequestOptions options) {
    List<String> names = new ArrayList<>(op.headers().keySet());
    names.addAll(options.headers().keySet());
    KeyPlacement placement = placement(op);
    for (String name : names) {
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

  private HttpUrl url(Operation<?, ?> op, RequestOptions options) {
    boolean fixed = op.path().variables().isEmpty() && options.query().isEmpty();
    if (fixed) {
      return fixedUrls.computeIfAbsent(
          op.pathTemplate(), t -> expand(op, options.pathParams(), QueryParams.empty()));
    }
    return expand(op, options.pathParams(), options.query());
  }

  // The base URL, the operation's expanded path and the query: base URL's query first.
  private HttpUrl expand(Operation<?, ?> op, Map<String, String> params, QueryParams query) {
    HttpUrl.Builder b = baseUrl.newBuilder();
    int size = baseUrl.pathSize();
    if (size > 0 && baseUrl.pathSegments().get(size - 1).isEmpty()) {
      b.removePathSegment(size - 1);
    }
    b.addEncodedPathSegments(op.path().expand(params).substring(1));
    if (!query.isEmpty()) {
      String own = query.encode();
      String base = baseUrl.encodedQuery();
      b.encodedQuery(base == null || base.isEmpty() ? own : base + "&" + own);
    }
    return b.build();
  }

  // The URL with only the base URL's own query: what the fingerprint's path has always held.
  private HttpUrl baseQueryOnly(HttpUrl url) {
    return url.newBuilder().encodedQuery(baseUrl.encodedQuery()).build();
  }

  private static QueryParams linkQuery(HttpUrl link) {
    QueryParams q = QueryParams.empty();
    for (int i = 0; i < link.querySize(); i++) {
      String value = link.queryParameterValue(i);
      q = q.and(link.queryParameterName(i), value == null ? "" : value);
    }
    return q;
  }
}
