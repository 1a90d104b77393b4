/**
 * SafeRetry: a client for payment-style HTTP APIs under which a retry can never cause a second side
 * effect. Start with {@link dev.saferetry.SafeRetryClient}.
 */
package dev.saferetry;
