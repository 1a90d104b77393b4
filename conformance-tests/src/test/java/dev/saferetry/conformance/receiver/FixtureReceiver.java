package dev.saferetry.conformance.receiver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small webhook receiver on the JDK's HTTP server, correct or with one {@link BrokenReceiver}
 * flaw: {@code POST /webhooks/stripe} (Stripe or Standard Webhooks signatures), {@code GET
 * /effects} ({@code {"applied","duplicates","stale","rejected"}}), {@code GET /orders/{id}} ({@code
 * {"applied": n}} for that order) and {@code POST /_test/fail-next} (the next delivery fails inside
 * the receiver). Its "database" is in memory; one lock is its transaction.
 */
public final class FixtureReceiver implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  /** How long the check-then-act receiver's business write takes: its race window. */
  private static final long WRITE_MILLIS = 50;

  private final BrokenReceiver flaw;
  private final FixtureSignatures signatures;
  private final long slowMillis;
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(32);
  private final CountDownLatch closing = new CountDownLatch(1);
  private final Object tx = new Object();
  private final Set<String> receipts = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> marks = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> perOrder = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final AtomicBoolean failNext = new AtomicBoolean();

  private FixtureReceiver(String scheme, String secret, BrokenReceiver flaw, long slowMillis)
      throws IOException {
    this.flaw = flaw;
    this.signatures = new FixtureSignatures(scheme, secret, 300);
    this.slowMillis = slowMillis;
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
    server.setExecutor(threads);
    server.createContext("/", this::serve);
    server.start();
  }

  /** A correct receiver. */
  public static FixtureReceiver correct(String scheme, String secret) {
    return start(scheme, secret, null, 0);
  }

  /** A receiver with {@code flaw}. */
  public static FixtureReceiver broken(String scheme, String secret, BrokenReceiver flaw) {
    return start(scheme, secret, flaw, 0);
  }

  /** A correct receiver that does its work before answering, taking {@code millis}. */
  public static FixtureReceiver slow(String scheme, String secret, long millis) {
    return start(scheme, secret, null, millis);
  }

  private static FixtureReceiver start(String scheme, String secret, BrokenReceiver f, long slow) {
    try {
      return new FixtureReceiver(scheme, secret, f, slow);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      byte[] body = exchange.getRequestBody().readAllBytes();
      int status = 200;
      String json;
      if (method.equals("POST") && path.equals("/webhooks/stripe")) {
        String[] answer = receive(body, exchange);
        status = Integer.parseInt(answer[0]);
        json = answer[1];
      } else if (method.equals("GET") && path.equals("/effects")) {
        json = effects();
      } else if (method.equals("GET") && path.startsWith("/orders/")) {
        AtomicLong n = perOrder.get(path.substring("/orders/".length()));
        json = "{\"applied\":" + (n == null ? 0 : n.get()) + "}";
      } else if (method.equals("POST") && path.equals("/_test/fail-next")) {
        failNext.set(true);
        json = "{}";
      } else {
        status = 404;
        json = "{\"error\":\"not found\"}";
      }
      byte[] out = json.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, out.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(out);
      }
    }
  }

  private String[] receive(byte[] body, HttpExchange exchange) {
    boolean checks = flaw != BrokenReceiver.NO_SIGNATURE_CHECK;
    String refusal =
        checks
            ? signatures.refusal(
                body, exchange.getRequestHeaders(), flaw != BrokenReceiver.STALE_ACCEPTED)
            : null;
    Event e = refusal == null ? Event.parse(body, exchange, signatures.idInHeader()) : null;
    if (refusal != null || e == null) {
      count("rejected");
      int status = flaw == BrokenReceiver.REFUSES_WITH_500 ? 500 : 400;
      return new String[] {Integer.toString(status), "{\"error\":\"refused\"}"};
    }
    pause(slowMillis); // the heavy work done inline instead of queued
    try {
      String outcome =
          flaw == BrokenReceiver.CHECK_THEN_ACT
              ? checkThenAct(e)
              : flaw == BrokenReceiver.RECEIPT_AFTER_EFFECT ? receiptAfterEffect(e) : inOneTx(e);
      if (!outcome.equals("applied")) {
        count(outcome); // an effect is counted where it happens, in apply
      }
      return new String[] {"200", "{\"outcome\":\"" + outcome + "\"}"};
    } catch (IllegalStateException failure) {
      return new String[] {"500", "{\"error\":\"try again\"}"};
    }
  }

  /** Receipt, order check and effect in one transaction; an injected failure commits nothing. */
  private String inOneTx(Event e) {
    synchronized (tx) {
      if (receipts.contains(e.id())) {
        return "duplicates";
      }
      boolean stale = stale(e);
      failIfArmed();
      receipts.add(e.id());
      return stale ? "stale" : apply(e);
    }
  }

  /** Broken: the receipt is looked up before the transaction, and the write takes a while. */
  private String checkThenAct(Event e) {
    if (receipts.contains(e.id())) {
      return "duplicates";
    }
    pause(WRITE_MILLIS);
    synchronized (tx) {
      boolean stale = stale(e);
      failIfArmed();
      receipts.add(e.id());
      return stale ? "stale" : apply(e);
    }
  }

  /** Broken: the effect commits on its own; the receipt is recorded afterwards. */
  private String receiptAfterEffect(Event e) {
    synchronized (tx) {
      if (receipts.contains(e.id())) {
        return "duplicates";
      }
      boolean stale = stale(e);
      String outcome = stale ? "stale" : apply(e);
      failIfArmed(); // a crash between the effect and the receipt
      receipts.add(e.id());
      return outcome;
    }
  }

  private boolean stale(Event e) {
    Long mark = marks.get(e.order());
    if (flaw == BrokenReceiver.NO_ORDER_AWARENESS || mark == null) {
      return false;
    }
    return flaw == BrokenReceiver.DEDUP_BY_ORDER || e.created() < mark;
  }

  private String apply(Event e) {
    marks.merge(e.order(), e.created(), Math::max);
    perOrder.computeIfAbsent(e.order(), k -> new AtomicLong()).incrementAndGet();
    count("applied");
    return "applied";
  }

  private void failIfArmed() {
    if (failNext.getAndSet(false)) {
      throw new IllegalStateException("injected failure");
    }
  }

  private void count(String what) {
    counts.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
  }

  private String effects() {
    StringBuilder b = new StringBuilder("{");
    for (String k : new String[] {"applied", "duplicates", "stale", "rejected"}) {
      AtomicLong n = counts.get(k);
      b.append(b.length() > 1 ? "," : "").append('"').append(k).append("\":");
      b.append(n == null ? 0 : n.get());
    }
    return b.append('}').toString();
  }

  private void pause(long millis) {
    try {
      closing.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The parts of an event the receiver uses; null when the body is not such an event. */
  record Event(String id, String order, long created) {
    static Event parse(byte[] body, HttpExchange exchange, boolean idInHeader) {
      try {
        JsonNode root = JSON.readTree(body);
        String id =
            idInHeader
                ? exchange.getRequestHeaders().getFirst("webhook-id")
                : root.path("id").asText(null);
        String order =
            root.path("data").path("object").path("metadata").path("order_id").asText(null);
        JsonNode created = root.path("created");
        return id == null || order == null || !created.canConvertToLong()
            ? null
            : new Event(id, order, created.asLong());
      } catch (IOException e) {
        return null;
      }
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
