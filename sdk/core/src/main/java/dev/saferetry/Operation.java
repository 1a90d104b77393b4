package dev.saferetry;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.PathTemplate;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.idempotency.KeyPlacement;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One endpoint of an API: method, path template, request and response types, whether it carries an
 * idempotency key, its body codec and the headers that belong to its intents' identity. Operations
 * are values: define them once as constants and execute them with a {@link SafeRetryClient}.
 *
 * <pre>{@code
 * static final Operation<ChargeCreateParams, Charge> CREATE_CHARGE =
 *     Operation.post("/v1/charges", ChargeCreateParams.class, Charge.class);
 * static final Operation<Void, Charge> GET_CHARGE =
 *     Operation.get("/v1/charges/{id}", Charge.class);
 * static final Operation<Void, StripeList<Charge>> LIST_CHARGES =
 *     Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});
 * static final Operation<Void, Customer> DELETE_CUSTOMER =
 *     Operation.delete("/v1/customers/{id}", Customer.class);
 * }</pre>
 *
 * <p><b>Keys.</b> POST carries an idempotency key; GET, HEAD, OPTIONS and DELETE do not; PUT and
 * PATCH do unless switched off. {@link #carryingKey(boolean)} makes it explicit for any method.
 * Only an operation that carries a key records intents.
 *
 * <p><b>Bodies.</b> A {@code null} body sends no body at all (a POST sends {@code Content-Length:
 * 0}), never {@code {}}; the one exception is a key placed in a body field, which is then the
 * body's only field. The body is encoded with {@link #withCodec the operation's codec}, or the
 * client's (JSON unless a preset or the builder says otherwise). GET, HEAD and OPTIONS take no
 * body.
 *
 * <p><b>Paths.</b> Path variables are written {@code {name}}, each a whole segment, and filled from
 * {@link RequestOptions#pathParams()}: a value is always one segment ({@code /}, {@code %}, {@code
 * ?} and {@code #} are encoded), and empty, {@code .} or {@code ..} values are refused before any
 * I/O. Literal text is sent as written ({@code %20} stays {@code %20}); templates have no query, no
 * dot segments (also not {@code %2e}), no spaces and no control characters. Query parameters go in
 * {@link RequestOptions#withQuery}.
 *
 * <p><b>Identity headers.</b> A header that changes what a request means (a connected account, an
 * API version) can be {@linkplain #withIdentityHeaders declared} part of the intent's identity: its
 * value goes into the intent's fingerprint with the method, path, query and body, so the same
 * intent id with another value fails locally as a payload mismatch.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param <Q> the request body type ({@code Void} for none)
 * @param <R> the response body type
 */
public final class Operation<Q, R> {
  private final String name;
  private final String method;
  private final String pathTemplate;
  private final PathTemplate path;
  private final Class<Q> requestType;
  private final TypeRef<R> responseType;
  private final boolean carriesKey;
  private final BodyCodec codec;
  private final Set<String> identityHeaders;
  private final Map<String, String> headers;
  private final KeyPlacement placement; // null: the client's
  private final int keyMaxLength; // 0: the client's

  private Operation(
      String name,
      String method,
      String pathTemplate,
      Class<Q> requestType,
      TypeRef<R> responseType,
      Boolean carriesKey,
      BodyCodec codec,
      Set<String> identityHeaders,
      Map<String, String> headers,
      KeyPlacement placement,
      int keyMaxLength) {
    Objects.requireNonNull(method, "method");
    this.pathTemplate = Objects.requireNonNull(pathTemplate, "pathTemplate");
    this.requestType = Objects.requireNonNull(requestType, "requestType");
    this.responseType = Objects.requireNonNull(responseType, "responseType");
    this.method = method.toUpperCase(Locale.ROOT);
    if (this.method.isEmpty() || !this.method.chars().allMatch(c -> c >= 'A' && c <= 'Z')) {
      throw new IllegalArgumentException("method must be letters only, e.g. POST");
    }
    this.path = PathTemplate.of(pathTemplate);
    String n = name == null ? this.method + " " + pathTemplate : name;
    if (n.isBlank() || n.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("name must not be blank or contain control characters");
    }
    this.name = n;
    this.carriesKey = carriesKey != null ? carriesKey : defaultCarriesKey(this.method);
    if (!takesBody() && requestType != Void.class) {
      throw new IllegalArgumentException(this.method + " sends no body; use Void as request type");
    }
    this.codec = codec;
    this.identityHeaders = identityHeaders;
    this.headers = headers;
    this.placement = placement;
    this.keyMaxLength = keyMaxLength;
  }

  private static boolean defaultCarriesKey(String method) {
    switch (method) {
      case "GET":
      case "HEAD":
      case "OPTIONS":
      case "DELETE":
        return false;
      default:
        return true;
    }
  }

  /**
   * {@return an operation of any method} The key default is that of its method (see the class
   * documentation).
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param method the HTTP method, e.g. {@code "PUT"}
   * @param pathTemplate the path template
   * @param requestType the request body class ({@code Void.class} for none)
   * @param responseType the response type
   * @throws IllegalArgumentException for a bad method or template, or a body type for GET, HEAD or
   *     OPTIONS
   */
  public static <Q, R> Operation<Q, R> of(
      String method, String pathTemplate, Class<Q> requestType, TypeRef<R> responseType) {
    return new Operation<>(
        null,
        method,
        pathTemplate,
        requestType,
        responseType,
        null,
        null,
        noHeaders(),
        Map.of(),
        null,
        0);
  }

  /**
   * {@return a POST operation; it carries a key}
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param requestType the request type
   * @param responseType the response type
   */
  public static <Q, R> Operation<Q, R> post(
      String pathTemplate, Class<Q> requestType, Class<R> responseType) {
    return of("POST", pathTemplate, requestType, TypeRef.of(responseType));
  }

  /**
   * {@return a POST operation with a generic response type; it carries a key}
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param requestType the request type
   * @param responseType the response type
   */
  public static <Q, R> Operation<Q, R> post(
      String pathTemplate, Class<Q> requestType, TypeRef<R> responseType) {
    return of("POST", pathTemplate, requestType, responseType);
  }

  /**
   * {@return a GET operation; it sends no body and no idempotency key}
   *
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param responseType the response type
   */
  public static <R> Operation<Void, R> get(String pathTemplate, Class<R> responseType) {
    return of("GET", pathTemplate, Void.class, TypeRef.of(responseType));
  }

  /**
   * {@return a GET operation with a generic response type, e.g. {@code new
   * TypeRef<StripeList<Charge>>() {}}; it sends no body and no idempotency key}
   *
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param responseType the response type
   */
  public static <R> Operation<Void, R> get(String pathTemplate, TypeRef<R> responseType) {
    return of("GET", pathTemplate, Void.class, responseType);
  }

  /**
   * {@return a DELETE operation without a body; it carries no key unless {@link #carryingKey} says
   * so}
   *
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param responseType the response type
   */
  public static <R> Operation<Void, R> delete(String pathTemplate, Class<R> responseType) {
    return of("DELETE", pathTemplate, Void.class, TypeRef.of(responseType));
  }

  /**
   * {@return a copy with another name (the scope of its intents)}
   *
   * @param newName the new name
   */
  public Operation<Q, R> named(String newName) {
    return copy(c -> c.name = Objects.requireNonNull(newName, "name"));
  }

  /**
   * {@return a copy that carries an idempotency key (and records intents) or not, whatever its
   * method} A PUT or PATCH that the server does not deduplicate may switch it off; a DELETE that
   * the server deduplicates may switch it on.
   *
   * @param carries whether attempts carry a key
   */
  public Operation<Q, R> carryingKey(boolean carries) {
    return copy(c -> c.carriesKey = carries);
  }

  /**
   * {@return a copy that encodes its body with {@code codec} instead of the client's ({@link
   * SafeRetryClientBuilder#codec})}
   *
   * @param codec the codec
   */
  public Operation<Q, R> withCodec(BodyCodec codec) {
    return copy(c -> c.codec = Objects.requireNonNull(codec, "codec"));
  }

  /**
   * {@return a copy whose intents' identity also includes these headers (added to the client's own,
   * {@link SafeRetryClientBuilder#identityHeaders}): the same intent id sent with another value of
   * one of them fails before any I/O with a payload mismatch} Names are compared ignoring case.
   *
   * @param headerNames the header names, e.g. {@code "Stripe-Account"}
   */
  public Operation<Q, R> withIdentityHeaders(String... headerNames) {
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.addAll(identityHeaders);
    for (String h : headerNames) {
      if (Objects.requireNonNull(h, "header name").isBlank()) {
        throw new IllegalArgumentException("header name must not be blank");
      }
      names.add(h);
    }
    return copy(c -> c.identityHeaders = java.util.Collections.unmodifiableSet(names));
  }

  /**
   * {@return a copy that sends a header on every request of this operation, e.g. an API version one
   * endpoint needs} It replaces the preset's and the client's header of the same name; a call's own
   * header ({@link RequestOptions#withHeader}) replaces it. Validated as the client's default
   * headers are.
   *
   * @param headerName the header name
   * @param value the value
   * @throws IllegalArgumentException for a bad name or value (the message never holds the value)
   */
  public Operation<Q, R> withHeader(String headerName, String value) {
    Objects.requireNonNull(headerName, "headerName");
    Objects.requireNonNull(value, "value");
    dev.saferetry.internal.HttpText.headerName("header name", headerName);
    dev.saferetry.internal.HttpText.headerValue(headerName, value);
    Map<String, String> all = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    all.putAll(headers);
    all.put(headerName, value);
    return copy(c -> c.headers = java.util.Collections.unmodifiableMap(all));
  }

  /**
   * {@return a copy that carries its key where {@code placement} says instead of where the client's
   * {@link SafeRetryClientBuilder#keyPlacement} does} For an API whose operations differ: one takes
   * the key in a header, another in a body field (a generated client sets it from the provider's
   * OpenAPI document). An intent recorded with this operation keeps this placement when a relay
   * sends it later.
   *
   * @param placement where the key goes
   * @throws IllegalArgumentException if the placement names a header that is not a token
   */
  public Operation<Q, R> withKeyPlacement(KeyPlacement placement) {
    Objects.requireNonNull(placement, "placement");
    if (!placement.inBody()) {
      dev.saferetry.internal.HttpText.headerName("keyPlacement header name", placement.name());
    }
    return copy(c -> c.placement = placement);
  }

  /**
   * {@return a copy that refuses, before any I/O, a key longer than {@code length} characters,
   * whatever the client's {@link SafeRetryClientBuilder#keyMaxLength}} For a limit the provider
   * states for this operation's key (an OpenAPI {@code maxLength}).
   *
   * @param length the maximum length, at least 1
   * @throws IllegalArgumentException if {@code length} is less than 1
   */
  public Operation<Q, R> withKeyMaxLength(int length) {
    if (length < 1) {
      throw new IllegalArgumentException("keyMaxLength must be at least 1, was " + length);
    }
    return copy(c -> c.keyMaxLength = length);
  }

  /** {@return a copy of this operation with what {@code change} sets on its {@link Changes}} */
  private Operation<Q, R> copy(java.util.function.Consumer<Changes> change) {
    Changes c = new Changes(this);
    change.accept(c);
    return new Operation<>(
        c.name,
        method,
        pathTemplate,
        requestType,
        responseType,
        c.carriesKey,
        c.codec,
        c.identityHeaders,
        c.headers,
        c.placement,
        c.keyMaxLength);
  }

  /**
   * The settings a {@code with…} copy may change, starting as the original's. Confined to one
   * {@link #copy} call; not thread-safe.
   */
  private static final class Changes {
    String name;
    boolean carriesKey;
    BodyCodec codec;
    Set<String> identityHeaders;
    Map<String, String> headers;
    KeyPlacement placement;
    int keyMaxLength;

    Changes(Operation<?, ?> o) {
      name = o.name;
      carriesKey = o.carriesKey;
      codec = o.codec;
      identityHeaders = o.identityHeaders;
      headers = o.headers;
      placement = o.placement;
      keyMaxLength = o.keyMaxLength;
    }
  }

  /**
   * {@return where this operation's key goes, if it says ({@link #withKeyPlacement}); empty: where
   * the client's placement says}
   */
  public java.util.Optional<KeyPlacement> keyPlacement() {
    return java.util.Optional.ofNullable(placement);
  }

  /**
   * {@return the longest key this operation sends ({@link #withKeyMaxLength}); 0: the client's
   * limit applies}
   */
  public int keyMaxLength() {
    return keyMaxLength;
  }

  /** {@return the headers this operation sends on every request (see {@link #withHeader})} */
  public Map<String, String> headers() {
    return headers;
  }

  private static Set<String> noHeaders() {
    return Set.of();
  }

  /**
   * {@return the operation's name: the scope of its intents and a label in logs; by default {@code
   * "METHOD /path/template"}}
   */
  public String name() {
    return name;
  }

  /** {@return the HTTP method, upper case} */
  public String method() {
    return method;
  }

  /** {@return the path template as written} */
  public String pathTemplate() {
    return pathTemplate;
  }

  /** {@return the parsed path template} */
  public PathTemplate path() {
    return path;
  }

  /** {@return the request body class ({@code Void} for none)} */
  public Class<Q> requestType() {
    return requestType;
  }

  /** {@return the response type} */
  public TypeRef<R> responseType() {
    return responseType;
  }

  /** {@return whether attempts of this operation carry an idempotency key} */
  public boolean carriesKey() {
    return carriesKey;
  }

  /** {@return whether the method may send a body: every method but GET, HEAD and OPTIONS} */
  public boolean takesBody() {
    return !(method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS"));
  }

  /** {@return the operation's own body codec, or {@code null} to use the client's} */
  public BodyCodec codec() {
    return codec;
  }

  /**
   * {@return the headers that belong to its intents' identity (besides the client's), ignoring
   * case}
   */
  public Set<String> identityHeaders() {
    return identityHeaders;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Operation<?, ?> op
        && op.name.equals(name)
        && op.method.equals(method)
        && op.pathTemplate.equals(pathTemplate)
        && op.requestType.equals(requestType)
        && op.responseType.equals(responseType)
        && op.carriesKey == carriesKey
        && Objects.equals(op.codec, codec)
        && op.identityHeaders.equals(identityHeaders)
        && op.headers.equals(headers)
        && Objects.equals(op.placement, placement)
        && op.keyMaxLength == keyMaxLength;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, method, pathTemplate, responseType, carriesKey);
  }

  @Override
  public String toString() {
    return "Operation[" + name + ", " + method + " " + pathTemplate + "]";
  }
}
