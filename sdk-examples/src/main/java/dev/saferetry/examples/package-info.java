/**
 * Runnable, copyable examples of the SafeRetry SDK, and the guided {@link
 * dev.saferetry.examples.Demo}.
 *
 * <p>Each example is a small {@code main} that runs against a reference server started in-process,
 * or against the base URL given as its first argument (a reference server started with {@code
 * --test-hooks}, so that faults can be armed and side effects counted). Each also has a {@code
 * run(...)} method that returns a {@link dev.saferetry.examples.Report}: the attempts as they
 * happened on the wire, the charges the caller intended and the charges the server made. The tests
 * call {@code run(...)} with a fake clock and sleeper, so they never wait for real.
 *
 * <p>The examples use the SDK's public API only — nothing from {@code dev.saferetry.internal}.
 * {@link dev.saferetry.examples.Sandbox} and {@link dev.saferetry.examples.OutageProxy} stand in
 * for the world outside your service (a payment API that loses responses or goes down); you would
 * not copy those.
 */
package dev.saferetry.examples;
