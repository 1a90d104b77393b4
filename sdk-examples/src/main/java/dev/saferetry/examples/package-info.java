/**
 * Runnable, copyable examples of the SafeRetry SDK: every class in this package is one example, a
 * plain {@code main} of at most 80 lines started by one command, that uses the SDK's public API
 * only ({@code ExampleRulesTest} checks all of this, and that the README's table lists each).
 *
 * <p>The calling examples take the payment API's base URL as their argument (by default a reference
 * server on {@code http://127.0.0.1:8080}) and keep what is worth copying in a {@code run} method
 * that receives a client builder with the base URL and credentials set. The guided tour ({@link
 * dev.saferetry.examples.demo}) and the tests call {@code run} with a builder that also records the
 * wire and, in tests, carries a fake clock and sleeper.
 *
 * <p>The examples call SafeRetry's published artifacts: the typed client {@code saferetry-payments}
 * ({@code dev.saferetry.payments}, generated from the reference server's OpenAPI document), and the
 * failure examples arm their faults on {@code saferetry-testing}'s fake provider. Not examples:
 * {@link dev.saferetry.examples.support} (what a few examples still need around them: the HTTP and
 * broker plumbing, drills that start and kill processes, and the metrics, tracing and webhook
 * helpers), {@link dev.saferetry.examples.demo} (the guided tour and the world it arranges: lost
 * responses, an outage, a crash) and {@link dev.saferetry.examples.readme} (the README's snippets,
 * compiled). The benchmarks and the chaos soak are modules of their own ({@code sdk/benchmarks},
 * {@code sdk/soak}). Child JVMs come from the SDK's test fixtures ({@code dev.saferetry.testing}).
 */
package dev.saferetry.examples;
