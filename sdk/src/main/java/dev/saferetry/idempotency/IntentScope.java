package dev.saferetry.idempotency;

import java.util.Objects;

/**
 * Where an intent id is unique: a tenant (one account or merchant of the caller's) and an operation
 * name such as {@code "POST /v1/charges"}. The same intent id in two scopes names two different
 * intents, exactly as servers scope keys per tenant and operation.
 *
 * @param tenant the tenant, never blank; the client's default is {@value #DEFAULT_TENANT}
 * @param operation the operation name, never blank
 *     <p>Instances are immutable and thread-safe.
 */
public record IntentScope(String tenant, String operation) {
  /** The tenant used when a client is not configured with one. */
  public static final String DEFAULT_TENANT = "default";

  /**
   * Validates the scope.
   *
   * @throws IllegalArgumentException if either part is blank or contains a control character
   */
  public IntentScope {
    checkPart("tenant", tenant);
    checkPart("operation", operation);
  }

  private static void checkPart(String name, String value) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(name + " must not contain control characters");
      }
    }
  }
}
