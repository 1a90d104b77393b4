package dev.saferetry.conformance.server;

/**
 * The definitive result of a mutation as stored in {@code api_idempotency} and replayed.
 *
 * @param status HTTP status
 * @param body JSON body
 * @param resourceType {@code charge}, {@code refund} or null when nothing was created
 * @param resourceId the created resource's id, or null
 */
record Outcome(int status, String body, String resourceType, String resourceId) {

  /** The {@code Location} header this outcome carries, or null. */
  String location() {
    return "charge".equals(resourceType) && status == 201 ? "/v1/charges/" + resourceId : null;
  }
}
