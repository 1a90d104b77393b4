/**
 * Retry and circuit-breaker policies and the retry classification: what is retried, how long to
 * wait, and when to stop calling an unhealthy server.
 */
package dev.saferetry.resilience;
