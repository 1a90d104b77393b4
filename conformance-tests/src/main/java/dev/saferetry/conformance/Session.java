package dev.saferetry.conformance;

import dev.saferetry.conformance.proxy.BaseUrl;
import dev.saferetry.conformance.server.ReferenceServer;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * One suite run's shared state: configuration, the HTTP client, redaction, the declared hooks and
 * side-effect counter, unique-name generation and, without a target, the in-process reference
 * server. Closed when the run ends. Thread-safe.
 */
final class Session implements AutoCloseable {
  final SuiteConfig config;
  final String baseUrl;
  final OkHttpClient http;
  final Redaction redaction;
  final EffectCounter counter;
  private final ReferenceServer embedded;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong names = new AtomicLong();

  /**
   * Opens a session; starts the reference server in-process when no target is given.
   *
   * @throws IllegalArgumentException when a declared hook or counter is malformed
   */
  Session(SuiteConfig config) {
    this(config, true);
  }

  /**
   * Opens a session; without a target it starts the reference server in-process when {@code
   * embedReference} is set, and otherwise has no base URL (the preflight reports that).
   *
   * @throws IllegalArgumentException when a declared hook or counter is malformed
   */
  Session(SuiteConfig config, boolean embedReference) {
    this.config = config;
    this.redaction = new Redaction(config);
    this.counter = EffectCounter.declared(config);
    FaultKind.validateDeclared(config);
    this.embedded =
        config.target() == null && embedReference
            ? ReferenceServer.builder().testHooks(true).build().start()
            : null;
    this.baseUrl = embedded == null ? config.target() : embedded.baseUrl();
    // The suite observes the server itself: OkHttp must never retry or follow on its own.
    this.http =
        new OkHttpClient.Builder()
            .retryOnConnectionFailure(false)
            // Idle connections are dropped before a typical server's keep-alive ends (Node: 5 s):
            // without retries, a request on a connection the server just closed would fail.
            .connectionPool(new ConnectionPool(32, 1, TimeUnit.SECONDS))
            .followRedirects(false)
            .followSslRedirects(false)
            .connectTimeout(Duration.ofSeconds(5))
            .readTimeout(Duration.ofSeconds(config.getLong("read-timeout-seconds", 30)))
            .callTimeout(Duration.ofSeconds(config.getLong("read-timeout-seconds", 30) * 2))
            .build();
  }

  /** A name unique to this run (and, by its random part, across runs). */
  String unique(String prefix) {
    return prefix + "-" + runId + "-" + names.incrementAndGet();
  }

  /**
   * Absolute URL of a configured path (with its own query, if any) or URL: the path goes after the
   * target's path, and the target's query (e.g. {@code ?token=...}) comes along before the path's.
   *
   * @throws IllegalArgumentException if the target is not an http or https URL
   */
  String url(String pathOrUrl) {
    return pathOrUrl.startsWith("http://") || pathOrUrl.startsWith("https://")
        ? pathOrUrl
        : BaseUrl.resolve(baseUrl, pathOrUrl);
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
