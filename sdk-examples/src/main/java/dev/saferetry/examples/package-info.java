/**
 * Runnable, copyable examples of the SafeRetry SDK: one example per file, each a plain {@code main}
 * that uses the SDK's public API only. A few examples have a helper next to them that a service
 * would write too ({@link dev.saferetry.examples.SafeRetryMeterBinder}, {@link
 * dev.saferetry.examples.SafeRetryTracing}, the webhook receiver's {@code ChargeEvent}, {@code
 * OrderBook} and {@code DeliveryCounts}).
 *
 * <p>The calling examples take the payment API's base URL as their argument (by default a reference
 * server on {@code http://127.0.0.1:8080}) and keep what is worth copying in a {@code run} method
 * that receives a client builder with the base URL and credentials set. The guided tour ({@link
 * dev.saferetry.examples.demo}) and the tests call {@code run} with a builder that also records the
 * wire and, in tests, carries a fake clock and sleeper.
 *
 * <p>Not examples: {@link dev.saferetry.examples.demo} (the guided tour and the world it arranges:
 * lost responses, an outage, a crash), {@link dev.saferetry.examples.harness} (argument parsing,
 * HTTP plumbing, a Stripe-shaped server). The benchmarks and the chaos soak are modules of their
 * own ({@code sdk/benchmarks}, {@code sdk/soak}). Child JVMs come from the SDK's test fixtures
 * ({@code dev.saferetry.testing}).
 */
package dev.saferetry.examples;
