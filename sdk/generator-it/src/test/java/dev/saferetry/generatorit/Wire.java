package dev.saferetry.generatorit;

import dev.saferetry.ProviderPreset;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.Sleeper;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;

/** The test server's answers and clients that never wait between attempts. */
final class Wire {
  private Wire() {}

  /** A sleeper that returns at once: retries happen without waiting. */
  static final Sleeper NO_WAIT =
      new Sleeper() {
        @Override
        public void sleep(Duration delay) {}

        @Override
        public CompletableFuture<Void> after(Duration delay) {
          return CompletableFuture.completedFuture(null);
        }
      };

  static MockWebServer started() throws java.io.IOException {
    MockWebServer server = new MockWebServer();
    server.start();
    return server;
  }

  static MockResponse json(int code, String body) {
    return new MockResponse.Builder()
        .code(code)
        .addHeader("Content-Type", "application/json")
        .body(body)
        .build();
  }

  static SafeRetryClientBuilder client(MockWebServer server, KeyStore store) {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .apiKey("sk_test_generator_it")
        .keyStore(store)
        .sleeper(NO_WAIT);
  }

  static SafeRetryClient stripe(MockWebServer server, KeyStore store) {
    return client(server, store).preset(ProviderPreset.stripe()).build();
  }
}
