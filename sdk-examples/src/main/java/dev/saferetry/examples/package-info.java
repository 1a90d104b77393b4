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
 * <p>Not examples: {@link dev.saferetry.examples.payments} (a typed client built on the SDK, which
 * the examples call and a service may copy), {@link dev.saferetry.examples.support} (what the
 * examples need around them: in-process payment APIs, the HTTP and broker plumbing, drills that
 * start and kill processes, and the metrics, tracing and webhook helpers), {@link
 * dev.saferetry.examples.demo} (the guided tour and the world it arranges: lost responses, an
 * outage, a crash) and {@link dev.saferetry.examples.readme} (the README's snippets, compiled). The
 * benchmarks and the chaos soak are modules of their own ({@code sdk/benchmarks}, {@code
 * sdk/soak}). Child JVMs come from the SDK's test fixtures ({@code dev.saferetry.testing}).
 */
package dev.saferetry.examples;
