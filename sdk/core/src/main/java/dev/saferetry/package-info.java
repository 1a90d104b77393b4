/**
 * SafeRetry: a client for payment-style HTTP APIs under which a retry can never cause a second side
 * effect. Start with {@link dev.saferetry.SafeRetryClient}.
 *
 * <p>One rule for derived objects: values share nothing, since a value holds no resources — {@link
 * dev.saferetry.RequestOptions} and the policies have {@code with...} methods that return a changed
 * copy, provider presets have {@code toBuilder()}, a builder holding a copy of their settings; the
 * client has {@link dev.saferetry.SafeRetryClient#newBuilder()}, whose client shares with this one
 * every resource whose settings it does not change (connection pool, circuit breaker, retry budget,
 * async executor).
 */
package dev.saferetry;
