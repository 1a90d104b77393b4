package dev.saferetry.conformance.server;

/**
 * An idempotent request as the flow sees it.
 *
 * @param tenant tenant id (the bearer token)
 * @param operation e.g. {@code POST /v1/charges}
 * @param key the parsed idempotency key
 * @param requestHash SHA-256 of method, path with query and canonical body
 */
record IdempotencyRequest(String tenant, String operation, String key, String requestHash) {}
