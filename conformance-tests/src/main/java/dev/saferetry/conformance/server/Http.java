package dev.saferetry.conformance.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes a {@link Reply} to an exchange. Stateless and thread-safe. */
final class Http {
  private Http() {}

  static void send(HttpExchange exchange, Reply reply) throws IOException {
    if (reply.drop()) {
      // Closing before sendResponseHeaders makes the JDK server close the socket: the client
      // sees an unexpected end of stream, exactly like a response lost in the network.
      exchange.getResponseHeaders().set("Connection", "close");
      exchange.close();
      return;
    }
    var headers = exchange.getResponseHeaders();
    headers.set("Content-Type", reply.contentType());
    if (reply.location() != null) {
      headers.set("Location", reply.location());
    }
    if (reply.replayed()) {
      headers.set("Idempotent-Replayed", "true");
    }
    if (reply.retryAfter() > 0) {
      headers.set("Retry-After", Integer.toString(reply.retryAfter()));
    }
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
