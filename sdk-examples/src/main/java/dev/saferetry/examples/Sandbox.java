package dev.saferetry.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.conformance.server.ReferenceServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * The payment API an example runs against: a {@link ReferenceServer} started in-process, or any
 * reference server reachable at a base URL and started with {@code --test-hooks}. It arms faults
 * and counts side effects through the server's {@code /_test/...} hooks, so both cases work alike.
 * This is test scaffolding, not something to copy into a service.
 *
 * <p>Thread-safe.
 */
public final class Sandbox implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final String baseUrl;
  private final ReferenceServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Sandbox(String baseUrl, ReferenceServer server) {
    this.baseUrl = baseUrl;
    this.server = server;
  }

  /** Uses {@code args[index]} as the base URL if present, else starts a server in-process. */
  public static Sandbox fromArgs(String[] args, int index) {
    return args.length > index ? remote(args[index]) : inProcess(b -> b);
  }

  /** Starts a reference server in-process, configured by {@code config}. */
  public static Sandbox inProcess(UnaryOperator<ReferenceServer.Builder> config) {
    ReferenceServer server = config.apply(ReferenceServer.builder().testHooks(true)).build();
    server.start();
    return new Sandbox(server.baseUrl(), server);
  }

  /** Uses a running reference server. */
  public static Sandbox remote(String baseUrl) {
    return new Sandbox(baseUrl.replaceAll("/+$", ""), null);
  }

  /** Returns a unique tag for one run, used as the charges' description to count them. */
  public static String tag(String scenario) {
    return scenario + "-" + UUID.randomUUID().toString().substring(0, 8);
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

  /** Returns how many charges and refunds the server executed with this description. */
  public long sideEffects(String description) {
    String body =
        send(
            HttpRequest.newBuilder(
                    URI.create(
                        baseUrl
                            + "/_test/side-effects"
                            + "?description="
                            + URLEncoder.encode(description, StandardCharsets.UTF_8)))
                .GET());
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
            baseUrl
                + " answered "
                + r.statusCode()
                + " to a test hook: start the reference server with --test-hooks");
      }
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException("test hook of " + baseUrl + " unreachable", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Stops the in-process server, if this sandbox started one. */
  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
