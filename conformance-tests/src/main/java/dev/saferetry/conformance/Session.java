package dev.saferetry.conformance;

import dev.saferetry.conformance.server.ReferenceServer;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.OkHttpClient;

/**
 * One suite run's shared state: configuration, the HTTP client, unique-name generation and, without
 * a target, the in-process reference server. Closed when the run ends. Thread-safe.
 */
final class Session implements AutoCloseable {
  final SuiteConfig config;
  final String baseUrl;
  final OkHttpClient http;
  private final ReferenceServer embedded;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong counter = new AtomicLong();

  Session(SuiteConfig config) {
    this.config = config;
    this.embedded =
        config.target() == null ? ReferenceServer.builder().testHooks(true).build().start() : null;
    this.baseUrl = embedded == null ? config.target() : embedded.baseUrl();
    // The suite observes the server itself: OkHttp must never retry on its own.
    this.http =
        new OkHttpClient.Builder()
            .retryOnConnectionFailure(false)
            .followRedirects(false)
            .connectTimeout(Duration.ofSeconds(5))
            .readTimeout(Duration.ofSeconds(30))
            .callTimeout(Duration.ofSeconds(60))
            .build();
  }

  /** A name unique to this run, e.g. for keys and payload markers. */
  String unique(String prefix) {
    return prefix + "-" + runId + "-" + counter.incrementAndGet();
  }

  @Override
  public void close() {
    http.dispatcher().cancelAll();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
    if (embedded != null) {
      embedded.close();
    }
  }
}
