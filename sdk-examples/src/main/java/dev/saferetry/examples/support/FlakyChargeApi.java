package dev.saferetry.examples.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.RetryPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A charge endpoint on loopback that can be taken down: while down it answers 503, otherwise it
 * creates a charge. It records every request it gets, in arrival order, as the charge's description
 * and the status it answered. Plumbing for the operator example, not an example to copy.
 *
 * <p>Thread-safe.
 */
public final class FlakyChargeApi implements AutoCloseable {
  private static final Pattern DESCRIPTION = Pattern.compile("\"description\":\"([^\"]*)\"");

  private final HttpServer server;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final AtomicInteger charges = new AtomicInteger();
  private volatile boolean down;

  /** Starts the endpoint on a free loopback port. */
  public FlakyChargeApi() throws IOException {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Matcher m = DESCRIPTION.matcher(body);
      String what = m.find() ? m.group(1) : "?";
      int status = down ? 503 : 200;
      received.add(what + " " + status);
      String reply =
          status == 503
              ? "{\"error\":{\"type\":\"api_error\",\"message\":\"down\"}}"
              : "{\"id\":\"ch_"
                  + charges.incrementAndGet()
                  + "\",\"object\":\"charge\",\"amount\":1,\"currency\":\"eur\","
                  + "\"status\":\"succeeded\"}";
      byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** {@return the base URL} */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  /** {@return a client of this endpoint on {@code store}, making one attempt per send} */
  public SafeRetryClient client(KeyStore store) {
    return SafeRetryClient.builder()
        .baseUrl(baseUrl())
        .apiKey("sk_test_demo")
        .keyStore(store)
        .retryPolicy(RetryPolicy.defaults().withMaxAttempts(1))
        .build();
  }

  /** Takes the endpoint down (503 to everything) or brings it back. */
  public void down(boolean down) {
    this.down = down;
  }

  /** {@return every request so far: its charge's description and the status answered} */
  public List<String> received() {
    return List.copyOf(received);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
