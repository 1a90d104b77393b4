package dev.saferetry.examples.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.conformance.server.ReferenceServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * The payment API the guided tour and the examples' tests run against: a {@link ReferenceServer}
 * started in-process with its test hooks on. It arms faults and counts side effects through the
 * server's {@code /_test/...} hooks. The world outside a service, not something to copy into one.
 *
 * <p>Thread-safe.
 */
public final class Sandbox implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final String baseUrl;
  private final ReferenceServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Sandbox(ReferenceServer server) {
    this.server = server;
    this.baseUrl = server.baseUrl();
  }

  /** Starts a reference server in-process with the defaults (key in {@code Idempotency-Key}). */
  public static Sandbox start() {
    return start(b -> b);
  }

  /** Starts a reference server in-process, configured by {@code config}. */
  public static Sandbox start(UnaryOperator<ReferenceServer.Builder> config) {
    ReferenceServer server = config.apply(ReferenceServer.builder().testHooks(true)).build();
    server.start();
    return new Sandbox(server);
  }

  /** Returns the base URL, without a trailing slash. */
  public String baseUrl() {
    return baseUrl;
  }

  /** The next charge commits, then its response is lost (the connection closes). */
  public void dropNextResponse() {
    arm("{\"fault\":\"drop_after_commit\"}");
  }

  /** The next charge holds its key pending for {@code delay} before it commits. */
  public void delayNextCharge(Duration delay) {
    arm("{\"fault\":\"delay\",\"millis\":" + delay.toMillis() + "}");
  }

  /** Returns how many charges and refunds this server executed. */
  public long sideEffects() {
    String body = send(HttpRequest.newBuilder(URI.create(baseUrl + "/_test/side-effects")).GET());
    try {
      return JSON.readTree(body).path("total").asLong();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void arm(String fault) {
    send(
        HttpRequest.newBuilder(URI.create(baseUrl + "/_test/faults"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(fault)));
  }

  private String send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r =
          http.send(
              request.timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(
            baseUrl + " answered " + r.statusCode() + " to a test hook");
      }
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException("test hook of " + baseUrl + " unreachable", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Stops the server. */
  @Override
  public void close() {
    server.close();
  }
}
