package dev.saferetry.testing.provider;

import java.util.Map;
import java.util.Objects;

/**
 * One request a {@link FakeProvider} received, in arrival order, and what it made of it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param operation the operation it was routed to, {@code "POST /v1/charges"}; for a path no
 *     endpoint serves, the method and the path
 * @param path the request's path
 * @param key the idempotency key it carried (header or body field, as configured), or null
 * @param parameters its parameters (query and body, without the key); empty when the body could not
 *     be read
 * @param status the status of the provider's answer; the answer may not have reached the client
 *     (see {@code fault})
 * @param replayed whether the answer was the stored answer of an earlier request with the key
 * @param fault the fault applied to it, or null
 */
public record Received(
    String operation,
    String path,
    String key,
    Map<String, Object> parameters,
    int status,
    boolean replayed,
    Fault fault) {

  /**
   * Checks and copies.
   *
   * @param operation the operation
   * @param path the path
   * @param key the key, or null
   * @param parameters the parameters
   * @param status the status answered
   * @param replayed whether it was a replay
   * @param fault the fault applied, or null
   * @throws IllegalArgumentException if {@code operation} has no method
   */
  public Received {
    if (Objects.requireNonNull(operation, "operation").indexOf(' ') < 1) {
      throw new IllegalArgumentException("operation must be \"METHOD /path\": " + operation);
    }
    Objects.requireNonNull(path, "path");
    parameters = Values.freeze(Objects.requireNonNull(parameters, "parameters"));
  }

  /** {@return the method, the part of the operation before the path} */
  public String method() {
    return operation.substring(0, operation.indexOf(' '));
  }
}
