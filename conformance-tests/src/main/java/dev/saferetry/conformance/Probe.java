package dev.saferetry.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The server under test as one case sees it: raw HTTP (every exchange recorded as redacted
 * evidence), the configured API shape, the declared hooks and the side-effect counter. One per
 * case; thread-safe (race cases send from several threads).
 */
final class Probe implements AutoCloseable {
  private static final int MAX_EXCHANGES = 60;
  final Session session;
  final SuiteConfig cfg;
  private final List<Exchange> exchanges = Collections.synchronizedList(new ArrayList<>());
  private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
  private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
  private final Hooks hooks;
  private final Effects effects;

  Probe(Session session) {
    this.session = session;
    this.cfg = session.config;
    this.hooks = new Hooks(this);
    this.effects = new Effects(this, session.counter);
  }

  /** The configured value of {@code key}, or null. */
  String config(String key) {
    return cfg.get(key);
  }

  /** A fresh idempotency key, unique to this run. */
  String newKey() {
    return session.unique("sr-key");
  }

  /** A fresh create payload whose {@code ${marker}} is unique to this run. */
  Payload newPayload() {
    return Payload.of(cfg.get("create.payload"), session.unique("conformance"));
  }

  /**
   * The same create payload on every run against every server: its marker is {@code
   * conformance-<name>}, not unique to this run. For a case whose first request must meet the state
   * its own earlier runs left, so that a second run repeats the first run's evidence instead of
   * stumbling over it. Count its effects from a {@link Effects#baseline}.
   */
  Payload stablePayload(String name) {
    return Payload.of(cfg.get("create.payload"), "conformance-" + name);
  }

  /** A fresh key and payload: one logical operation. */
  Intent intent() {
    return new Intent(this, newKey(), newPayload());
  }

  /** A create request as tenant 1 with a raw key header value (null: no header). */
  Answer create(String label, String key, String json) {
    return send(label, "POST", cfg.get("create.path"), json, key, tenant1());
  }

  /** Sends a request and records it; an I/O error ends the case as an infrastructure ERROR. */
  Answer send(
      String label, String method, String path, String body, String key, Map<String, String> h) {
    Answer answer = attempt(label, request(method, path, body, key, h));
    if (answer.lost()) {
      throw new UncheckedIOException(
          new IOException(label + ": no response from " + path + " (" + answer.error() + ")"));
    }
    return answer;
  }

  /**
   * Sends a retry of a request that already ended. While it answers the in-progress status — a
   * server may store an outcome just after answering — it is asked again, at most twice, after its
   * {@code Retry-After} (at most 1 s): such a server is slow to settle, not unsafe.
   */
  Answer retry(
      String label, String method, String path, String body, String key, Map<String, String> h) {
    int inProgress = cfg.getInt("status.in-progress", 409);
    Answer a = send(label, method, path, body, key, h);
    for (int again = 1; again <= 2 && a.status() == inProgress; again++) {
      pause(a);
      a = send(label + " (again, it was in progress)", method, path, body, key, h);
    }
    return a;
  }

  private static void pause(Answer inProgress) {
    long millis = inProgress.header("Retry-After") != null ? 1000 : 300;
    try {
      TimeUnit.MILLISECONDS.sleep(millis); // a real server settling
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends a request and records it; an I/O error comes back as an answer with status 0. */
  Answer attempt(String label, Request request) {
    return attempt(label, request, session.http, true);
  }

  /** Sends and records a request; {@code note} adds "label→status(id)" to the case's notes. */
  Answer attempt(String label, Request request, OkHttpClient client, boolean note) {
    Call call = client.newCall(request);
    calls.add(call);
    long start = System.nanoTime();
    Answer answer;
    try (Response r = call.execute()) {
      answer = Answer.of(r.code(), r.body().string(), r.headers(), start);
    } catch (IOException e) {
      answer = Answer.failed(e, start);
    } finally {
      calls.remove(call);
    }
    record(label, request, answer);
    if (note) {
      String id = answer.ok() ? id(answer) : null;
      note(label + "→" + answer.brief() + (id == null ? "" : "(" + id + ")"));
    }
    return answer;
  }

  /**
   * Builds a request; a body starting with <code>{</code> or {@code [} is sent as {@code
   * application/json}, any other as {@code application/x-www-form-urlencoded}.
   */
  Request request(String method, String path, String body, String key, Map<String, String> h) {
    Request.Builder b = new Request.Builder().url(session.url(path));
    h.forEach(b::header);
    if (key != null) {
      b.header(cfg.get("key.header"), key);
    }
    String text = body == null ? "" : body;
    boolean needsBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    RequestBody rb =
        text.isEmpty() && !needsBody ? null : RequestBody.create(text, mediaType(text));
    return b.method(method, rb).build();
  }

  private static MediaType mediaType(String body) {
    String s = body.stripLeading();
    return MediaType.get(
        s.startsWith("{") || s.startsWith("[")
            ? "application/json"
            : "application/x-www-form-urlencoded");
  }

  /** The resource id at the configured JSON pointer, or null. */
  String id(Answer answer) {
    if (answer.json() == null) {
      return null;
    }
    JsonNode id = answer.json().at(JsonPointer.compile(cfg.get("id.pointer")));
    return id.isMissingNode() || id.isNull() || id.isContainerNode() ? null : id.asText();
  }

  /** Tenant 1's extra headers (e.g. Authorization). */
  Map<String, String> tenant1() {
    return cfg.withPrefix("headers.");
  }

  /**
   * Tenant 2's headers; empty when no second tenant is configured. With {@code
   * tenant2.inherit-headers=true} they are tenant 1's headers with {@code tenant2.headers.*} added
   * or replaced, e.g. the same API key plus {@code Stripe-Account: acct_...} (a connected account).
   */
  Map<String, String> tenant2() {
    Map<String, String> own = cfg.withPrefix("tenant2.headers.");
    if (own.isEmpty() || !cfg.getBoolean("tenant2.inherit-headers", false)) {
      return own;
    }
    Map<String, String> merged = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    merged.putAll(tenant1());
    merged.putAll(own);
    return new java.util.LinkedHashMap<>(merged);
  }

  Hooks hooks() {
    return hooks;
  }

  Effects effects() {
    return effects;
  }

  /** Records one observation for the report. */
  void note(String observation) {
    notes.add(session.redaction.text(observation, 300));
  }

  List<String> notes() {
    synchronized (notes) {
      return List.copyOf(notes);
    }
  }

  List<Exchange> exchanges() {
    synchronized (exchanges) {
      return List.copyOf(exchanges);
    }
  }

  private void record(String label, Request request, Answer answer) {
    if (exchanges.size() >= MAX_EXCHANGES) {
      return;
    }
    Redaction red = session.redaction;
    List<String> requestHeaders = new ArrayList<>();
    request.headers().forEach(p -> requestHeaders.add(red.header(p.getFirst(), p.getSecond())));
    List<String> responseHeaders = new ArrayList<>();
    answer.headers().forEach(p -> responseHeaders.add(red.header(p.getFirst(), p.getSecond())));
    exchanges.add(
        new Exchange(
            label,
            request.method(),
            red.text(request.url().toString(), 400),
            requestHeaders,
            red.text(bodyText(request)),
            answer.status(),
            responseHeaders,
            red.text(answer.body()),
            answer.error() == null ? "" : red.text(answer.error(), 200),
            TimeUnit.NANOSECONDS.toMillis(answer.endNanos() - answer.startNanos())));
  }

  private static String bodyText(Request request) {
    if (request.body() == null) {
      return "";
    }
    try (okio.Buffer buffer = new okio.Buffer()) {
      request.body().writeTo(buffer);
      return buffer.readUtf8();
    } catch (IOException e) {
      return "(unreadable body)";
    }
  }

  /** Cancels requests still in flight (e.g. a hung request). */
  @Override
  public void close() {
    synchronized (calls) {
      calls.forEach(Call::cancel);
    }
  }
}
