package dev.saferetry.idempotency;

/**
 * Where an intent id is unique: a tenant (one account or merchant of the caller's) and an operation
 * name such as {@code "POST /v1/charges"}. The same intent id in two scopes names two different
 * intents, exactly as servers scope keys per tenant and operation.
 *
 * <p>Both parts are stored with every intent record, so they must be text a store can keep exactly:
 * well-formed Unicode (no unpaired surrogate), no control characters, at most {@value
 * #MAX_TENANT_LENGTH} and {@value #MAX_OPERATION_LENGTH} characters.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param tenant the tenant, never blank; the client's default is {@value #DEFAULT_TENANT}
 * @param operation the operation name, never blank
 */
public record IntentScope(String tenant, String operation) {
  /** The tenant used when a client is not configured with one. */
  public static final String DEFAULT_TENANT = "default";

  /** The longest tenant accepted, in characters. */
  public static final int MAX_TENANT_LENGTH = 255;

  /** The longest operation name accepted, in characters. */
  public static final int MAX_OPERATION_LENGTH = 1024;

  /**
   * Validates the scope.
   *
   * @param tenant the tenant, never blank; the client's default is {@value #DEFAULT_TENANT}
   * @param operation the operation name, never blank
   * @throws IllegalArgumentException if either part is blank, too long, not well-formed Unicode (an
   *     unpaired surrogate) or contains a control character
   */
  public IntentScope {
    RecordText.check("tenant", tenant, MAX_TENANT_LENGTH);
    RecordText.check("operation", operation, MAX_OPERATION_LENGTH);
  }
}
