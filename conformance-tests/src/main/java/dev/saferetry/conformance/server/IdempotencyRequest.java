package dev.saferetry.conformance.server;

/**
 * An idempotent request as the flow sees it.
 *
 * @param tenant tenant id (the bearer token)
 * @param operation e.g. {@code POST /v1/charges}, whatever path variant was requested
 * @param path the request path exactly as sent (e.g. {@code /V1/Charges/})
 * @param key the parsed idempotency key
 * @param requestHash SHA-256 of method, route with query and canonical body
 */
record IdempotencyRequest(
    String tenant, String operation, String path, String key, String requestHash) {}
