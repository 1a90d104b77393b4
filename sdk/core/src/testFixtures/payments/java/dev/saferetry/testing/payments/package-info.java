/**
 * A typed payments API (charges, refunds) built on the generic SafeRetry client, for the SDK's own
 * tests: the operations and records they call. Not part of the SDK; the examples carry their own
 * copy ({@code dev.saferetry.examples.payments}).
 */
package dev.saferetry.testing.payments;
