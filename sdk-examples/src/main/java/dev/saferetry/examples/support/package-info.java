/**
 * What the examples need around them, kept out of the examples so that each stays one short file:
 * in-process payment APIs ({@link dev.saferetry.examples.support.PaymentApi}, the Stripe-shaped
 * server in {@code support.stripe}), the webhook receiver's HTTP side, tables and events, the queue
 * consumer's broker side, the outbox drill that starts and kills relay processes, the Micrometer
 * binder and the OpenTelemetry listener (to copy into a service along with their example), and
 * {@code --name value} argument parsing. Child JVMs come from the SDK's test fixtures, fault
 * proxies from the conformance suite.
 */
package dev.saferetry.examples.support;
