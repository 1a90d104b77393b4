package dev.saferetry.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP server that answers every request with status 200 and the same small charge JSON,
 * so that a benchmark measures the client and nothing else.
 *
 * <p>Thread-safe; {@link #close()} stops it.
 */
public final class FixedResponseServer implements AutoCloseable {
  /** The body of every answer. */
  public static final byte[] CHARGE =
      ("{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":1000,"
              + "\"amount_refunded\":0,\"currency\":\"eur\",\"status\":\"succeeded\","
              + "\"created\":1700000000}")
          .getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;
  private final ExecutorService executor;
  private final AtomicLong requests = new AtomicLong();

  private FixedResponseServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts a server on an ephemeral port of 127.0.0.1.
   *
   * @param threads the size of the server's fixed thread pool
   */
  public static FixedResponseServer start(int threads) throws IOException {
    // Without TCP_NODELAY the JDK server's small writes meet delayed ACKs: +40 ms per request.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    AtomicInteger n = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "fixed-server-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    FixedResponseServer fixed = new FixedResponseServer(server, executor);
    server.setExecutor(executor);
    server.createContext("/", fixed::handle);
    server.start();
    return fixed;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      in.readAllBytes();
    }
    synchronized (requests) {
      requests.incrementAndGet();
      requests.notifyAll();
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, CHARGE.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(CHARGE);
    }
  }

  /** Returns the base URL, e.g. {@code http://127.0.0.1:54321}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Returns how many requests were answered. */
  public long requests() {
    return requests.get();
  }

  /**
   * Waits until at least {@code count} requests were answered or the timeout passed.
   *
   * @return whether the count was reached
   */
  public boolean awaitRequests(long count, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    synchronized (requests) {
      while (requests.get() < count) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return false;
        }
        requests.wait(left);
      }
      return true;
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
