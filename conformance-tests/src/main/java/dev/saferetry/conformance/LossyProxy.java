package dev.saferetry.conformance;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * A fault-injecting loopback proxy: it forwards each request to the target, waits for the target's
 * complete response, records it, and then closes the client's connection without answering — a
 * response lost in the network after the server committed.
 *
 * <p>Thread-safe.
 */
final class LossyProxy implements AutoCloseable {
  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "host",
          "connection",
          "content-length",
          "transfer-encoding",
          "keep-alive",
          "expect",
          "upgrade");
  private final String upstream;
  private final OkHttpClient http;
  private final HttpServer server;
  private final ExecutorService executor =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "lossy-proxy");
            thread.setDaemon(true);
            return thread;
          });
  private final List<Answer> swallowed = new CopyOnWriteArrayList<>();

  LossyProxy(String upstream, OkHttpClient http) {
    this.upstream = upstream;
    this.http = http;
    System.setProperty("sun.net.httpserver.nodelay", "true");
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::forwardAndDrop);
    server.start();
  }

  /** The proxy's base URL. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The upstream responses the client never received, in order. */
  List<Answer> swallowed() {
    return List.copyOf(swallowed);
  }

  private void forwardAndDrop(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Headers.Builder headers = new Headers.Builder();
      for (Map.Entry<String, List<String>> e : exchange.getRequestHeaders().entrySet()) {
        if (!HOP_BY_HOP.contains(e.getKey().toLowerCase(java.util.Locale.ROOT))) {
          e.getValue().forEach(v -> headers.add(e.getKey(), v));
        }
      }
      String type = exchange.getRequestHeaders().getFirst("Content-Type");
      Request request =
          new Request.Builder()
              .url(upstream + exchange.getRequestURI().toString())
              .headers(headers.build())
              .method(
                  exchange.getRequestMethod(),
                  exchange.getRequestMethod().equals("GET")
                      ? null
                      : RequestBody.create(body, type == null ? null : MediaType.parse(type)))
              .build();
      long start = System.nanoTime();
      try (okhttp3.Response r = http.newCall(request).execute()) {
        swallowed.add(Answer.of(r.code(), r.body().string(), r.headers(), start));
      } catch (IOException e) {
        swallowed.add(Answer.failed(e, start));
      }
      // Closing before sendResponseHeaders closes the socket: the client gets no response.
      exchange.getResponseHeaders().set("Connection", "close");
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
