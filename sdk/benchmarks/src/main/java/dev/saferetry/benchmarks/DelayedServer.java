package dev.saferetry.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A loopback HTTP server that answers every request with the fixed charge JSON after a delay,
 * holding no thread per waiting request: the handler returns at once and a timer sends the answer.
 * Run in its own JVM by {@link AsyncBenchmark}, so that the benchmark's thread and heap figures are
 * the client's alone. Prints {@code port <n>} once it listens, then serves until killed.
 *
 * <p>Options: {@code --delay-ms N} (default 1000).
 */
public final class DelayedServer {
  private DelayedServer() {}

  /** Starts the server; see the class comment. */
  public static void main(String[] args) throws IOException {
    long delayMs =
        args.length == 2 && args[0].equals("--delay-ms") ? Long.parseLong(args[1]) : 1000;
    System.setProperty("sun.net.httpserver.nodelay", "true");
    // The JDK server closes idle connections beyond 200; the client would meet them as lost
    // answers on its pooled connections. Keep them all, as a production server would.
    System.setProperty("sun.net.httpserver.maxIdleConnections", "20000");
    ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
    server.createContext(
        "/", exchange -> timer.schedule(() -> answer(exchange), delayMs, TimeUnit.MILLISECONDS));
    server.start();
    System.out.println("port " + server.getAddress().getPort());
    System.out.flush();
  }

  private static void answer(HttpExchange exchange) {
    try (InputStream in = exchange.getRequestBody()) {
      in.readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, FixedResponseServer.CHARGE.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(FixedResponseServer.CHARGE);
      }
    } catch (IOException e) {
      exchange.close(); // the client went away
    }
  }
}
