package dev.saferetry.examples.harness;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback proxy in front of a payment API that can simulate an outage: it answers the first
 * requests with {@code 503 Service Unavailable} and {@code Retry-After: 1} without forwarding them,
 * then forwards requests unchanged. Test scaffolding, not something to copy.
 *
 * <p>Thread-safe.
 */
public final class OutageProxy implements AutoCloseable {
  private static final Set<String> NOT_FORWARDED =
      Set.of(
          "host",
          "connection",
          "content-length",
          "transfer-encoding",
          "keep-alive",
          "expect",
          "upgrade",
          "date");
  private final String upstream;
  private final AtomicInteger refusals;
  private final AtomicInteger refused = new AtomicInteger();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ExecutorService executor =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "outage-proxy");
            t.setDaemon(true);
            return t;
          });
  private final HttpServer server;

  /**
   * Starts a proxy on an ephemeral loopback port in front of {@code upstream} that refuses the
   * first {@code refusals} requests.
   */
  public OutageProxy(String upstream, int refusals) {
    this.upstream = upstream;
    this.refusals = new AtomicInteger(refusals);
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Returns the proxy's base URL. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Returns how many requests were answered 503 without reaching the upstream. */
  public int refused() {
    return refused.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (refusals.getAndDecrement() > 0) {
        refused.incrementAndGet();
        exchange.getResponseHeaders().set("Retry-After", "1");
        reply(
            exchange,
            503,
            "{\"error\":{\"type\":\"api_error\",\"message\":\"down\"}}"
                .getBytes(StandardCharsets.UTF_8));
        return;
      }
      HttpRequest.Builder forward =
          HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
              .timeout(Duration.ofSeconds(30))
              .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                  values.forEach(v -> forward.header(name, v));
                }
              });
      HttpResponse<byte[]> answer =
          http.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
      answer
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))
                    && !name.startsWith(":")) {
                  exchange.getResponseHeaders().put(name, values);
                }
              });
      reply(exchange, answer.statusCode(), answer.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** Stops the proxy. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
