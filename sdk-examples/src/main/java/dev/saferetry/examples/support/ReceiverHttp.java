package dev.saferetry.examples.support;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP plumbing of the webhook receiver example, on the JDK's built-in server (a service has
 * its own web framework for this): one route per handler, request bodies read as raw bytes up to a
 * limit, JSON answers. Thread-safe.
 */
public final class ReceiverHttp implements AutoCloseable {
  /** Larger bodies are refused before they are read: webhooks are small. */
  public static final int MAX_BODY = 1 << 20;

  /**
   * An HTTP answer.
   *
   * @param status the status code
   * @param json the JSON body
   * @param retryAfterSeconds a {@code Retry-After} to send, or null for none
   */
  public record Reply(int status, String json, Integer retryAfterSeconds) {
    /** An answer without {@code Retry-After}. */
    public Reply(int status, String json) {
      this(status, json, null);
    }
  }

  /** Handles one request's raw body and headers. */
  @FunctionalInterface
  public interface Route {
    /** Answers one request. */
    Reply handle(byte[] body, Headers headers) throws Exception;
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(32);

  /** Binds a server to {@code port} on loopback (0: any free port); {@link #start()} serves. */
  public ReceiverHttp(int port) throws IOException {
    // Without TCP_NODELAY every keep-alive answer waits ~40 ms for the client's delayed ACK.
    // The JDK server reads this property once, when its first instance starts.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
    server.setExecutor(threads);
  }

  /** Serves {@code route} for {@code method} requests to exactly {@code path}. */
  public ReceiverHttp route(String method, String path, Route route) {
    server.createContext(path, exchange -> serve(exchange, method, path, route));
    return this;
  }

  /** Starts serving the routes. */
  public ReceiverHttp start() {
    server.start();
    return this;
  }

  /** Returns the bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  private static void serve(HttpExchange exchange, String method, String path, Route route)
      throws IOException {
    try (exchange) {
      Reply reply;
      if (!exchange.getRequestURI().getPath().equals(path)) {
        reply = new Reply(404, "{\"error\":\"not found\"}");
      } else if (!exchange.getRequestMethod().equals(method)) {
        reply = new Reply(405, "{\"error\":\"method not allowed\"}");
      } else {
        byte[] body = readLimited(exchange.getRequestBody());
        try {
          reply =
              body == null
                  ? new Reply(413, "{\"error\":\"too large\"}")
                  : route.handle(body, exchange.getRequestHeaders());
        } catch (Exception e) {
          // Not acknowledged: the sender delivers again later.
          reply = new Reply(500, "{\"error\":\"try again\"}");
        }
      }
      byte[] out = reply.json().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      if (reply.retryAfterSeconds() != null) {
        exchange.getResponseHeaders().set("Retry-After", reply.retryAfterSeconds().toString());
      }
      exchange.sendResponseHeaders(reply.status(), out.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(out);
      }
    }
  }

  private static byte[] readLimited(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY + 1);
    return body.length > MAX_BODY ? null : body;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
