package dev.saferetry.testing.provider;

import java.util.Map;
import java.util.Objects;

/**
 * One change a {@link FakeProvider} made: a request that was carried out (a charge created, a
 * payment intent confirmed, a customer deleted; a declined payment too, since the provider recorded
 * it). Replays, refused requests and reads are not effects.
 *
 * <p>Immutable and thread-safe.
 *
 * @param operation the operation, {@code "POST /v1/charges"} or {@code "POST
 *     /v1/payment_intents/{id}/confirm"}
 * @param path the request's path, e.g. {@code /v1/payment_intents/pi_123/confirm}
 * @param key the idempotency key it carried, or null
 * @param objectId the id of the object it created or changed, or null
 * @param parameters the request's parameters (JSON or form, without the key), as maps, lists,
 *     strings, numbers and booleans
 */
public record Effect(
    String operation, String path, String key, String objectId, Map<String, Object> parameters) {

  /**
   * Checks and copies.
   *
   * @param operation the operation
   * @param path the path
   * @param key the key, or null
   * @param objectId the object's id, or null
   * @param parameters the parameters
   */
  public Effect {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(path, "path");
    parameters = Values.freeze(Objects.requireNonNull(parameters, "parameters"));
  }
}
