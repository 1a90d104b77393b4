package dev.saferetry.conformance;

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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback proxy in front of a server that lets a test make it misbehave in one precise way: the
 * rule sees each request and either answers it with a canned response or lets it through.
 */
final class InterceptingProxy implements AutoCloseable {
  /** What a rule sees. */
  record Seen(String method, String path, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  /** A canned answer. */
  record Canned(int status, String body) {}

  /** Decides per request: a canned answer, or null to forward it. */
  interface Rule {
    Canned answer(Seen request);
  }

  private static final Set<String> SKIPPED =
      Set.of("host", "connection", "content-length", "upgrade", "expect");
  private final String upstream;
  private final Rule rule;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  InterceptingProxy(String upstream, Rule rule) throws IOException {
    this.upstream = upstream;
    this.rule = rule;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().toString();
      Seen seen = new Seen(exchange.getRequestMethod(), path, exchange.getRequestHeaders(), body);
      Canned canned = rule.answer(seen);
      if (canned != null) {
        send(exchange, canned.status(), canned.body(), "application/json");
        return;
      }
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(upstream + path));
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) -> {
                if (!SKIPPED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                  values.forEach(v -> b.header(name, v));
                }
              });
      b.method(
          seen.method(),
          body.isEmpty()
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofString(body));
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      r.headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!SKIPPED.contains(name.toLowerCase(java.util.Locale.ROOT))
                    && !name.startsWith(":")) {
                  exchange.getResponseHeaders().put(name, values);
                }
              });
      send(exchange, r.statusCode(), r.body(), null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(HttpExchange exchange, int status, String body, String type)
      throws IOException {
    if (type != null) {
      exchange.getResponseHeaders().set("Content-Type", type);
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  static InterceptingProxy start(String upstream, Rule rule) {
    try {
      return new InterceptingProxy(upstream, rule);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
