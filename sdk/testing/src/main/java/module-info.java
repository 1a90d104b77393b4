/**
 * A fake payment provider for your own tests: an HTTP server on loopback (MockWebServer) that
 * speaks the reference payments API's JSON or Stripe's form-encoded wire format with real
 * idempotency semantics, misbehaves on demand, counts effects per key, and a JUnit 5 extension that
 * gives each test a fresh one. Start with {@link dev.saferetry.testing.provider.FakeProvider}.
 *
 * <p>It does not depend on SafeRetry's client: it tests any HTTP client. JUnit is needed only by
 * {@link dev.saferetry.testing.provider.FakeProviderExtension}, Spring only by {@link
 * dev.saferetry.testing.provider.WithFakeProvider}; both are the user's own.
 */
module dev.saferetry.testing {
  requires mockwebserver3;
  requires okhttp3;
  requires com.fasterxml.jackson.databind;
  requires static transitive org.junit.jupiter.api; // its types are in the extension's signatures
  requires static spring.core;
  requires static spring.beans;
  requires static spring.context;
  requires static spring.test;

  exports dev.saferetry.testing.provider;

  // Spring instantiates the package-private test hook named in META-INF/spring.factories.
  opens dev.saferetry.testing.provider to
      spring.core;
}
