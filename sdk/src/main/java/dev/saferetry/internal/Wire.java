package dev.saferetry.internal;

import dev.saferetry.Attempt;
import dev.saferetry.resilience.AttemptResponse;
import dev.saferetry.resilience.TransportFailure;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;

/** Sends one attempt over OkHttp and reads its answer within the size limit. */
final class Wire {
  /** Error bodies are kept up to this size for the exception; the rest is discarded. */
  static final int MAX_ERROR_BODY = 64 * 1024;

  /**
   * Per-attempt state: {@code connected} is set by the follow-up guard once a connection carries
   * the request; {@code timedOut} by the deadline watchdog when it cancels the call; {@code
   * requests}, {@code head} and {@code refused} by the guard (see {@link FollowUps}).
   */
  static final class AttemptTag {
    final AtomicBoolean connected = new AtomicBoolean();
    final AtomicBoolean timedOut = new AtomicBoolean();
    final AtomicInteger requests = new AtomicInteger();
    volatile Response head;
    volatile boolean refused;
  }

  private final OkHttpClient http;
  private final Clock clock;
  private final long maxBodyBytes;

  Wire(OkHttpClient userOrDefault, Clock clock, long maxBodyBytes) {
    this.http = FollowUps.sdkOwned(userOrDefault);
    this.clock = clock;
    this.maxBodyBytes = maxBodyBytes;
  }

  OkHttpClient http() {
    return http;
  }

  /** A raw answer: status, headers and body bytes (null for an oversized 2xx body). */
  record Raw(AttemptResponse response, byte[] body, boolean oversized, String serverRequestId) {}

  /** The result of sending: a raw answer or a failure, plus timing. */
  record Sent(Raw raw, IOException error, TransportFailure failure, Duration duration) {}

  /** Sends one attempt; the deadline watchdog cancels it if {@code timeout} passes first. */
  Sent send(Request.Builder request, Duration timeout, Redaction redaction) {
    AttemptTag tag = new AttemptTag();
    Call call = http.newCall(request.tag(AttemptTag.class, tag).build());
    DeadlineWatchdog watchdog = DeadlineWatchdog.get();
    watchdog.watch(call, System.nanoTime() + Math.max(0, timeout.toNanos()), tag);
    Instant start = clock.instant();
    try (Response response = call.execute()) {
      Raw raw = read(call, response, redaction);
      return new Sent(raw, null, null, Duration.between(start, clock.instant()));
    } catch (IOException e) {
      return failed(tag, e, false, redaction, start);
    } catch (RuntimeException e) {
      // OkHttp's follow-up logic (e.g. a Retry-After too large for an int) or a caller's
      // interceptor threw: still an attempt, ending with what is known of it.
      return failed(
          tag, new IOException("the HTTP client failed: " + e, e), true, redaction, start);
    } finally {
      watchdog.release(call);
    }
  }

  private Sent failed(
      AttemptTag tag, IOException e, boolean clientFailed, Redaction redaction, Instant start) {
    Duration took = Duration.between(start, clock.instant());
    if (tag.head != null && (tag.refused || clientFailed)) {
      // The server answered the request that was sent; what failed came after that answer (the
      // guard refused a second request, or the client broke while deciding on one).
      return new Sent(answer(tag.head, redaction), null, null, took);
    }
    TransportFailure kind =
        tag.timedOut.get()
            ? (tag.connected.get()
                ? TransportFailure.CALL_TIMEOUT
                : TransportFailure.CONNECT_TIMEOUT)
            : Failures.classify(e, tag.connected.get());
    return new Sent(null, e, kind, took);
  }

  private Raw read(Call call, Response response, Redaction redaction) throws IOException {
    Raw head = answer(response, redaction);
    int status = head.response().status();
    BufferedSource source = response.body().source();
    boolean success = status >= 200 && status < 300;
    long limit = success ? maxBodyBytes : MAX_ERROR_BODY;
    boolean over = source.request(limit + 1);
    Raw raw;
    if (success) {
      byte[] bytes = over ? null : source.readByteArray();
      raw = new Raw(head.response(), bytes, over, head.serverRequestId());
    } else {
      String text = over ? source.readUtf8(limit) : source.readUtf8();
      AttemptResponse withBody = new AttemptResponse(status, head.response().headers(), text);
      raw = new Raw(withBody, null, false, head.serverRequestId());
    }
    if (over) {
      // Closing would drain the rest of the body to reuse the connection: drop it unread instead.
      call.cancel();
    }
    return raw;
  }

  /** Status, headers and the server's request id of an answer, without its body. */
  private static Raw answer(Response response, Redaction redaction) {
    AttemptResponse head = new AttemptResponse(response.code(), headerMap(response.headers()), "");
    String serverRequestId = head.header("Request-Id");
    if (serverRequestId == null) {
      serverRequestId = head.header("X-Request-Id");
    }
    return new Raw(head, new byte[0], false, redaction.printableMasked(serverRequestId));
  }

  /** The headers in one pass; toMultimap() lower-cases every name and builds a second map. */
  private static Map<String, List<String>> headerMap(Headers headers) {
    Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 0, n = headers.size(); i < n; i++) {
      map.computeIfAbsent(headers.name(i), k -> new ArrayList<>(1)).add(headers.value(i));
    }
    return map;
  }

  static Attempt attempt(int number, String requestId, Sent sent, Duration delayBefore) {
    if (sent.raw() != null) {
      return new Attempt(
          number,
          requestId,
          sent.raw().serverRequestId(),
          sent.raw().response().status(),
          null,
          sent.duration(),
          delayBefore);
    }
    return new Attempt(number, requestId, null, 0, sent.failure(), sent.duration(), delayBefore);
  }
}
