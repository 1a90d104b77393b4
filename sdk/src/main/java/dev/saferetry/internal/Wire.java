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
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/** Sends one attempt over OkHttp and reads its answer within the size limit. */
final class Wire {
  /** Error bodies are kept up to this size for the exception; the rest is discarded. */
  static final int MAX_ERROR_BODY = 64 * 1024;

  /**
   * Per-attempt flags: {@code connected} is set by a network interceptor once a connection carries
   * the request; {@code timedOut} by the deadline watchdog when it cancels the call.
   */
  static final class AttemptTag {
    final AtomicBoolean connected = new AtomicBoolean();
    final AtomicBoolean timedOut = new AtomicBoolean();
  }

  private final OkHttpClient http;
  private final Clock clock;
  private final long maxBodyBytes;

  Wire(OkHttpClient userOrDefault, Clock clock, long maxBodyBytes) {
    // The SDK owns every retry: OkHttp must not silently resend on a connection failure, and a
    // redirected POST would be re-issued as another request, so redirects surface as answers.
    this.http =
        userOrDefault
            .newBuilder()
            .retryOnConnectionFailure(false)
            .followRedirects(false)
            .followSslRedirects(false)
            .addNetworkInterceptor(
                chain -> {
                  AttemptTag tag = chain.request().tag(AttemptTag.class);
                  if (tag != null) {
                    tag.connected.set(true);
                  }
                  return chain.proceed(chain.request());
                })
            .build();
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
  Sent send(Request.Builder request, Duration timeout) {
    AttemptTag tag = new AttemptTag();
    Call call = http.newCall(request.tag(AttemptTag.class, tag).build());
    DeadlineWatchdog watchdog = DeadlineWatchdog.get();
    watchdog.watch(call, System.nanoTime() + Math.max(0, timeout.toNanos()), tag);
    Instant start = clock.instant();
    try (Response response = call.execute()) {
      Raw raw = read(response);
      return new Sent(raw, null, null, Duration.between(start, clock.instant()));
    } catch (IOException e) {
      TransportFailure kind =
          tag.timedOut.get()
              ? (tag.connected.get()
                  ? TransportFailure.CALL_TIMEOUT
                  : TransportFailure.CONNECT_TIMEOUT)
              : Failures.classify(e, tag.connected.get());
      return new Sent(null, e, kind, Duration.between(start, clock.instant()));
    } finally {
      watchdog.release(call);
    }
  }

  private Raw read(Response response) throws IOException {
    int status = response.code();
    AttemptResponse head = new AttemptResponse(status, headerMap(response.headers()), "");
    String serverRequestId = head.header("Request-Id");
    if (serverRequestId == null) {
      serverRequestId = head.header("X-Request-Id");
    }
    ResponseBody body = response.body();
    BufferedSource source = body.source();
    boolean success = status >= 200 && status < 300;
    long limit = success ? maxBodyBytes : MAX_ERROR_BODY;
    boolean over = source.request(limit + 1);
    if (success) {
      byte[] bytes = over ? null : source.readByteArray();
      return new Raw(head, bytes, over, serverRequestId);
    }
    String text = over ? source.readUtf8(limit) : source.readUtf8();
    AttemptResponse withBody = new AttemptResponse(status, head.headers(), text);
    return new Raw(withBody, null, false, serverRequestId);
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
