package dev.saferetry.examples.support.stripe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP exchange: reads and checks the request, applies the idempotency rules, runs the
 * endpoint, then answers (or loses the answer when asked to).
 */
final class Exchange {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY = 1 << 20;

  private final StripeShapedServer server;
  private final Router router;
  private final IdempotencyLayer idempotency;

  Exchange(StripeShapedServer server, Router router, IdempotencyLayer idempotency) {
    this.server = server;
    this.router = router;
    this.idempotency = idempotency;
  }

  void handle(HttpExchange ex) throws IOException {
    server.requests.incrementAndGet();
    String version = ex.getRequestHeaders().getFirst("Stripe-Version");
    Object parsed = parse(ex);
    Answer answer;
    try {
      answer = parsed instanceof StripeRequest r ? run(r) : new Answer((Reply) parsed, null, false);
    } catch (RuntimeException e) {
      Reply failed = Reply.error(500, "api_error", null, "An unexpected error occurred.", false);
      answer = new Answer(failed, null, false);
    }
    if (server.toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      server.lost.incrementAndGet();
      return; // closing the exchange without headers drops the connection: the answer is lost
    }
    send(ex, answer, validVersion(version) ? version : StripeShapedServer.DEFAULT_VERSION);
  }

  /** The bytes to send and whether they are a replay. */
  private record Answer(Reply reply, byte[] body, boolean replayed) {}

  private Answer run(StripeRequest r) {
    if (!r.method().equals("POST") || r.idempotencyKey() == null) {
      return new Answer(execute(r), null, false);
    }
    IdempotencyLayer.Identity identity =
        new IdempotencyLayer.Identity(r.method(), r.path(), r.account(), r.version(), r.params());
    IdempotencyLayer.Decision d = idempotency.begin(r.apiKey(), r.idempotencyKey(), identity);
    switch (d.kind()) {
      case MISMATCH:
        return refused(
            400,
            null,
            "Keys for idempotent requests can only be used with the same"
                + " parameters they were first used with.");
      case BUSY:
        return refused(
            409,
            "idempotency_key_in_use",
            "There is currently another in-progress request using this idempotency key.");
      case REPLAY:
        server.replays.incrementAndGet();
        return new Answer(new Reply(d.saved().status(), null, true), d.saved().body(), true);
      default:
        try {
          Reply reply = execute(r);
          byte[] body = json(reply.body());
          idempotency.complete(d.claim(), reply, body);
          return new Answer(reply, body, false);
        } catch (RuntimeException e) {
          idempotency.release(d.claim());
          throw e;
        }
    }
  }

  private static Answer refused(int status, String code, String message) {
    return new Answer(Reply.error(status, "idempotency_error", code, message, false), null, false);
  }

  private Reply execute(StripeRequest r) {
    StripeShapedServer.Hold h = server.hold.getAndSet(null);
    if (h != null) {
      h.entered.countDown();
      try {
        h.released.await(StripeShapedServer.Hold.MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return router.route(r);
  }

  /** Returns a {@link StripeRequest}, or the {@link Reply} refusing it. */
  private Object parse(HttpExchange ex) throws IOException {
    var headers = ex.getRequestHeaders();
    Reply refused = headerProblem(headers);
    if (refused != null) {
      return refused;
    }
    byte[] body = readBody(ex.getRequestBody());
    if (body == null) {
      return new Reply(
          413, Reply.error("invalid_request_error", null, "Request too large.", null), false);
    }
    String type = headers.getFirst("Content-Type");
    if (body.length > 0
        && (type == null
            || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded"))) {
      return Reply.invalid("Request bodies must be application/x-www-form-urlencoded.", null, null);
    }
    Map<String, Object> params;
    try {
      params = FormParser.parse(ex.getRequestURI().getRawQuery());
      if (ex.getRequestMethod().equals("POST")) {
        params.putAll(FormParser.parse(new String(body, StandardCharsets.ISO_8859_1)));
      }
    } catch (FormParser.FormException e) {
      return Reply.invalid("Invalid request parameters: " + e.getMessage(), null, null);
    }
    return new StripeRequest(
        ex.getRequestMethod(),
        ex.getRequestURI().getRawPath(),
        params,
        body.length > 0,
        apiKey(headers.getFirst("Authorization")),
        headers.getFirst("Stripe-Account"),
        headers.getFirst("Stripe-Version"),
        headers.getFirst("Idempotency-Key"));
  }

  /** Returns the answer refusing the request's headers, or null when they are fine. */
  private static Reply headerProblem(com.sun.net.httpserver.Headers headers) {
    if (apiKey(headers.getFirst("Authorization")) == null) {
      return new Reply(
          401,
          Reply.error(
              "invalid_request_error",
              null,
              "You did not provide an API key. Provide it as a Bearer token or with Basic auth.",
              null),
          false);
    }
    String version = headers.getFirst("Stripe-Version");
    if (version != null && !validVersion(version)) {
      return Reply.invalid("Invalid Stripe API version.", null, null);
    }
    String account = headers.getFirst("Stripe-Account");
    if (account != null && !account.matches("acct_[A-Za-z0-9]{1,64}")) {
      return Reply.invalid("Invalid Stripe-Account header.", null, null);
    }
    String key = headers.getFirst("Idempotency-Key");
    if (key != null && !key.matches("[\\x21-\\x7E]{1,255}")) {
      return Reply.invalid(
          "Invalid idempotency key: 1 to 255 visible ASCII characters.", null, null);
    }
    return null;
  }

  private static boolean validVersion(String version) {
    return version != null && version.matches("\\d{4}-\\d{2}-\\d{2}(\\.[a-z]+)?");
  }

  private static String apiKey(String authorization) {
    if (authorization == null) {
      return null;
    }
    String key = null;
    if (authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      key = authorization.substring(7).strip();
    } else if (authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String user =
            new String(
                Base64.getDecoder().decode(authorization.substring(6).strip()),
                StandardCharsets.UTF_8);
        key = user.contains(":") ? user.substring(0, user.indexOf(':')) : user;
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return key == null || key.isEmpty() ? null : key;
  }

  private static byte[] readBody(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_BODY + 1);
    return bytes.length > MAX_BODY ? null : bytes;
  }

  private void send(HttpExchange ex, Answer answer, String version) throws IOException {
    byte[] body = answer.body() != null ? answer.body() : json(answer.reply().body());
    var h = ex.getResponseHeaders();
    h.set("Content-Type", "application/json");
    h.set("Request-Id", requestId());
    h.set("Stripe-Version", version);
    if (answer.replayed()) {
      h.set("Idempotent-Replayed", "true");
    }
    ex.sendResponseHeaders(answer.reply().status(), body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  private static String requestId() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    StringBuilder id = new StringBuilder("req_");
    for (int i = 0; i < 14; i++) {
      id.append(
          "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".charAt(r.nextInt(62)));
    }
    return id.toString();
  }

  private static byte[] json(Map<String, Object> body) {
    try {
      return JSON.writeValueAsBytes(body == null ? new LinkedHashMap<>() : body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an answer", e);
    }
  }
}
