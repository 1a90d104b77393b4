package dev.saferetry;

import dev.saferetry.call.Attempt;
import dev.saferetry.internal.Redaction;
import dev.saferetry.resilience.TransportFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;

/** Sends attempts over OkHttp and reads their answers within the size limits. */
final class Transport {
  /** Error bodies are kept up to this size for the exception; the rest is discarded. */
  static final int MAX_ERROR_BODY = 64 * 1024;

  /** The largest body one byte array holds; a larger limit means this one. */
  static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final OkHttpClient http;
  private final Clock clock;
  private final long maxBodyBytes;
  private final List<String> requestIdHeaders;

  /**
   * @param http the SDK's client, derived by {@link OneRequestPerAttempt#sdkOwned} from the
   *     caller's
   * @param requestIdHeaders the headers carrying the server's request id, in order of preference
   */
  Transport(OkHttpClient http, Clock clock, long maxBodyBytes, List<String> requestIdHeaders) {
    this.http = http;
    this.clock = clock;
    this.maxBodyBytes = maxBodyBytes;
    this.requestIdHeaders = List.copyOf(requestIdHeaders);
  }

  /**
   * A response as received: status, headers and body bytes (null for an oversized 2xx body; an
   * error body cut at {@link #MAX_ERROR_BODY}).
   */
  record Received(RawResponse response, byte[] body, boolean oversized, String serverRequestId) {}

  /** What sending one attempt produced: a response as received, or a failure; and its duration. */
  record Sent(Received received, IOException error, TransportFailure failure, Duration duration) {}

  /** Returns one attempt of {@code request}, not yet sent. */
  Exchange exchange(Request.Builder request) {
    OneRequestPerAttempt.Tag tag = new OneRequestPerAttempt.Tag();
    return new Exchange(
        http.newCall(request.tag(OneRequestPerAttempt.Tag.class, tag).build()), tag);
  }

  /** One attempt on the wire: sent once, and cancellable from any thread while it runs. */
  final class Exchange {
    private final Call call;
    private final OneRequestPerAttempt.Tag tag;

    private Exchange(Call call, OneRequestPerAttempt.Tag tag) {
      this.call = call;
      this.tag = tag;
    }

    /** Cancels the attempt: its I/O fails at once, or it is never started. */
    void cancel() {
      call.cancel();
    }

    /** Sends the attempt; the deadline watchdog cancels it if {@code timeout} passes first. */
    Sent send(Duration timeout, Redaction redaction) {
      DeadlineWatchdog watchdog = DeadlineWatchdog.get();
      DeadlineWatchdog.Watch watch =
          watchdog.watch(call, System.nanoTime() + Math.max(0, timeout.toNanos()));
      Instant start = clock.instant();
      try (Response response = call.execute()) {
        Received received = read(call, response, redaction);
        return new Sent(received, null, null, Duration.between(start, clock.instant()));
      } catch (IOException e) {
        return failed(tag, watch.fired(), e, false, redaction, start);
      } catch (RuntimeException e) {
        // OkHttp's follow-up logic (e.g. a Retry-After too large for an int) or a caller's
        // interceptor threw: still an attempt, ending with what is known of it.
        return failed(
            tag,
            watch.fired(),
            new IOException("the HTTP client failed (" + e.getClass().getName() + ")", e),
            true,
            redaction,
            start);
      } finally {
        watchdog.release(watch);
      }
    }
  }

  private Sent failed(
      OneRequestPerAttempt.Tag tag,
      boolean timedOut,
      IOException e,
      boolean clientFailed,
      Redaction redaction,
      Instant start) {
    Duration took = Duration.between(start, clock.instant());
    if (tag.head != null && (tag.refused || clientFailed)) {
      // The server answered the request that was sent; what failed came after that answer (the
      // guard refused a second request, or the client broke while deciding on one).
      return new Sent(answer(tag.head, redaction), null, null, took);
    }
    // An interceptor that tried again after a failure ends the attempt with the refusal of its
    // second try (or an exception of its own): what happened on the wire is the first failure.
    IOException onWire = tag.sentFailure != null ? tag.sentFailure : e;
    TransportFailure kind =
        timedOut
            ? (tag.connected.get()
                ? TransportFailure.CALL_TIMEOUT
                : TransportFailure.CONNECT_TIMEOUT)
            : TransportFailures.classify(onWire, tag.connected.get());
    // The HTTP client's message may quote the URL or a header: only a redacted copy goes on.
    return new Sent(null, TransportFailures.redact(e, redaction), kind, took);
  }

  private Received read(Call call, Response response, Redaction redaction) throws IOException {
    Received head = answer(response, redaction);
    int status = head.response().status();
    BufferedSource source = response.body().source();
    boolean success = status >= 200 && status < 300;
    long limit = success ? readLimit(maxBodyBytes) : MAX_ERROR_BODY;
    boolean over = source.request(limit + 1); // cannot overflow: limit <= MAX_ARRAY
    Received received;
    if (success) {
      byte[] bytes = over ? null : source.readByteArray();
      received = new Received(head.response(), bytes, over, head.serverRequestId());
    } else {
      byte[] bytes = over ? source.readByteArray(limit) : source.readByteArray();
      String text = new String(bytes, StandardCharsets.UTF_8);
      RawResponse withBody = new RawResponse(status, head.response().headers(), text);
      received = new Received(withBody, bytes, false, head.serverRequestId());
    }
    if (over) {
      // Closing would drain the rest of the body to reuse the connection: drop it unread instead.
      call.cancel();
    }
    return received;
  }

  /** The most bytes of a 2xx body read for a configured limit: at most one array's worth. */
  static long readLimit(long maxBodyBytes) {
    return Math.min(maxBodyBytes, MAX_ARRAY);
  }

  // Status, headers and the server's request id of an answer, without its body.
  private Received answer(Response response, Redaction redaction) {
    RawResponse head = new RawResponse(response.code(), headerMap(response.headers()), "");
    String serverRequestId = null;
    for (int i = 0; serverRequestId == null && i < requestIdHeaders.size(); i++) {
      serverRequestId = head.header(requestIdHeaders.get(i));
    }
    return new Received(head, new byte[0], false, redaction.printableMasked(serverRequestId));
  }

  // The headers in one pass; toMultimap() lower-cases every name and builds a second map.
  private static Map<String, List<String>> headerMap(Headers headers) {
    Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 0, n = headers.size(); i < n; i++) {
      map.computeIfAbsent(headers.name(i), k -> new ArrayList<>(1)).add(headers.value(i));
    }
    return map;
  }

  static Attempt attempt(int number, String requestId, Sent sent, Duration delayBefore) {
    if (sent.received() != null) {
      return new Attempt(
          number,
          requestId,
          sent.received().serverRequestId(),
          sent.received().response().status(),
          null,
          sent.duration(),
          delayBefore);
    }
    return new Attempt(number, requestId, null, 0, sent.failure(), sent.duration(), delayBefore);
  }
}
