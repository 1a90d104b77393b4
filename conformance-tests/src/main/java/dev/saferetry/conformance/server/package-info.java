/**
 * The SafeRetry reference server: a Stripe-like charges API over the JDK HTTP server and JDBC (H2
 * or PostgreSQL) that implements the Idempotency-Key server contract exactly, with fault and clock
 * hooks for tests. Entry point: {@link dev.saferetry.conformance.server.ReferenceServer}.
 */
package dev.saferetry.conformance.server;
