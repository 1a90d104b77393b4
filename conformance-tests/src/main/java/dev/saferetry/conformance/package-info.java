/**
 * The SafeRetry conformance suite: JUnit Jupiter cases that speak raw HTTP to a server and grade it
 * against the Idempotency-Key contract (MUST / SHOULD / MAY per profile), the runner that executes
 * them through the JUnit Platform launcher, and the reports it writes. Entry point: {@link
 * dev.saferetry.conformance.ConformanceRunner}.
 */
package dev.saferetry.conformance;
