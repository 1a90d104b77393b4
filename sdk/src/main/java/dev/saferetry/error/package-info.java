/**
 * The exceptions a SafeRetry call throws: a closed hierarchy rooted at {@link
 * dev.saferetry.error.SafeRetryException}, each carrying the idempotency key, the attempts and the
 * outcome.
 */
package dev.saferetry.error;
