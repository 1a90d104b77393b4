package dev.saferetry;

import dev.saferetry.codec.PathTemplate;
import java.util.Locale;
import java.util.Objects;

/**
 * One endpoint of an API: method, path template, request and response types. Operations are values:
 * define them once as constants and execute them with a {@link SafeRetryClient}.
 *
 * <pre>{@code
 * static final Operation<ChargeCreateParams, Charge> CREATE_CHARGE =
 *     Operation.post("/v1/charges", ChargeCreateParams.class, Charge.class);
 * static final Operation<Void, Charge> GET_CHARGE =
 *     Operation.get("/v1/charges/{id}", Charge.class);
 * }</pre>
 *
 * <p>Every method except GET, HEAD and OPTIONS carries an idempotency key. Path variables are
 * written {@code {name}}, each a whole segment, and filled from {@link
 * RequestOptions#pathParams()}: a value is always one segment ({@code /}, {@code %}, {@code ?} and
 * {@code #} are encoded), and empty, {@code .} or {@code ..} values are refused before any I/O.
 * Templates have no query, no dot segments, no spaces and no control characters.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param <Q> the request body type ({@code Void} for none)
 * @param <R> the response body type
 * @param name the operation's name: the scope of its intents and a label in logs; defaults to
 *     {@code "METHOD /path/template"}
 * @param method the HTTP method, upper case
 * @param pathTemplate the path, starting with {@code /}, as {@link PathTemplate#of} accepts it
 * @param requestType the request body class
 * @param responseType the response body class
 */
public record Operation<Q, R>(
    String name, String method, String pathTemplate, Class<Q> requestType, Class<R> responseType) {

  /**
   * Validates the operation.
   *
   * @param name the operation's name: the scope of its intents and a label in logs; defaults to
   *     {@code "METHOD /path/template"}
   * @param method the HTTP method, upper case
   * @param pathTemplate the path, starting with {@code /}, as {@link PathTemplate#of} accepts it
   * @param requestType the request body class
   * @param responseType the response body class
   */
  public Operation {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(pathTemplate, "pathTemplate");
    Objects.requireNonNull(requestType, "requestType");
    Objects.requireNonNull(responseType, "responseType");
    method = method.toUpperCase(Locale.ROOT);
    PathTemplate.of(pathTemplate); // validates: whole-segment variables, no dot segments, no query
    if (name == null) {
      name = method + " " + pathTemplate;
    }
    if (name.isBlank() || name.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("name must not be blank or contain control characters");
    }
  }

  /**
   * Returns a POST operation.
   *
   * @param <Q> the request body type
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param requestType the request type
   * @param responseType the response type
   * @return a POST operation
   */
  public static <Q, R> Operation<Q, R> post(
      String pathTemplate, Class<Q> requestType, Class<R> responseType) {
    return new Operation<>(null, "POST", pathTemplate, requestType, responseType);
  }

  /**
   * Returns a GET operation; it sends no body and no idempotency key.
   *
   * @param <R> the response body type
   * @param pathTemplate the path template
   * @param responseType the response type
   * @return a GET operation; it sends no body and no idempotency key
   */
  public static <R> Operation<Void, R> get(String pathTemplate, Class<R> responseType) {
    return new Operation<>(null, "GET", pathTemplate, Void.class, responseType);
  }

  /**
   * Returns a copy with another name (the scope of its intents).
   *
   * @param newName the new name
   * @return a copy with another name (the scope of its intents)
   */
  public Operation<Q, R> named(String newName) {
    return new Operation<>(newName, method, pathTemplate, requestType, responseType);
  }

  /**
   * Returns whether attempts of this operation carry an idempotency key.
   *
   * @return whether attempts of this operation carry an idempotency key
   */
  public boolean carriesKey() {
    return !(method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS"));
  }
}
