/**
 * The fake payment provider and its JUnit 5 extension.
 *
 * <ul>
 *   <li>{@link dev.saferetry.testing.provider.FakeProvider}: the provider, on a free loopback port,
 *       in one of two {@link dev.saferetry.testing.provider.Dialect}s, with the key in a header of
 *       any name or a JSON body field;
 *   <li>{@link dev.saferetry.testing.provider.Fault}: what it does wrong, armed per test for the
 *       next matching requests;
 *   <li>{@link dev.saferetry.testing.provider.Received} and {@link
 *       dev.saferetry.testing.provider.Effect}: every request it got and every change it made, for
 *       assertions;
 *   <li>{@link dev.saferetry.testing.provider.FakeProviderExtension}: a fresh provider per test,
 *       injected into fields and parameters, with a strict mode that fails a test whose requests
 *       made a duplicate effect.
 * </ul>
 */
package dev.saferetry.testing.provider;
