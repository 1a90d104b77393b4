/**
 * The exceptions a SafeRetry call throws: a closed hierarchy rooted at {@link
 * dev.saferetry.error.SafeRetryException} with one branch per outcome — {@link
 * dev.saferetry.error.CallFailedException} (FAILED), {@link
 * dev.saferetry.error.OutcomeUnknownException} (UNKNOWN) and {@link
 * dev.saferetry.error.ResponseBodyException} (SUCCEEDED) — each with a typed {@code reason()}, the
 * idempotency key and the attempts.
 */
package dev.saferetry.error;
