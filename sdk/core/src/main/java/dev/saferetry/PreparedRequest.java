package dev.saferetry;

import dev.saferetry.codec.EncodedBody;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.internal.Redaction;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.BufferedSink;

/**
 * A request ready to send: validated, its key fixed, its URL, headers and body bytes final, and —
 * when it belongs to an intent — its fingerprint computed. Every attempt sends exactly these bytes;
 * only the request id (and the optional attempt-number header) differ per attempt. Built in one
 * step by {@link RequestFactory}; immutable and thread-safe.
 */
final class PreparedRequest {
  private final Operation<?, ?> op;
  private final HttpUrl url;
  private final String intentId;
  private final IdempotencyKey key;
  private final String fingerprint;
  private final EncodedBody body;
  private final Request template;
  private final Redaction redaction;
  private final String attemptHeader;

  PreparedRequest(
      Operation<?, ?> op,
      HttpUrl url,
      String intentId,
      IdempotencyKey key,
      String fingerprint,
      EncodedBody body,
      Request.Builder headers,
      Redaction redaction,
      String attemptHeader) {
    this.op = op;
    this.url = url;
    this.intentId = intentId;
    this.key = key;
    this.fingerprint = fingerprint;
    this.body = body;
    this.redaction = redaction;
    this.attemptHeader = attemptHeader;
    RequestBody content = body == null ? emptyIfRequired(op.method()) : new Content(body);
    this.template = headers.url(url).method(op.method(), content).build();
  }

  // No body: nothing at all, or — for a method whose HTTP client insists on one — zero bytes
  // without a content type (Content-Length: 0), never {@code {}}.
  private static RequestBody emptyIfRequired(String method) {
    switch (method) {
      case "POST":
      case "PUT":
      case "PATCH":
      case "PROPPATCH":
      case "REPORT":
        return RequestBody.create(new byte[0], null);
      default:
        return null;
    }
  }

  // The encoded body as OkHttp sends it, without copying its bytes again.
  private static final class Content extends RequestBody {
    // Parsed content types (MediaType.get runs a regular expression): a codec has one, so this
    // stays as small as the codecs in use, and a client sending both form and JSON bodies parses
    // neither again.
    private static final ConcurrentHashMap<String, MediaType> TYPES = new ConcurrentHashMap<>();

    private final EncodedBody body;
    private final MediaType type;

    Content(EncodedBody body) {
      this.body = body;
      MediaType parsed = TYPES.get(body.contentType());
      if (parsed == null) {
        parsed = MediaType.get(body.contentType());
        if (TYPES.size() < 64) {
          TYPES.putIfAbsent(body.contentType(), parsed);
        }
      }
      this.type = parsed;
    }

    @Override
    public MediaType contentType() {
      return type;
    }

    @Override
    public long contentLength() {
      return body.length();
    }

    @Override
    public void writeTo(BufferedSink sink) throws IOException {
      body.writeTo(sink.outputStream());
    }
  }

  Operation<?, ?> operation() {
    return op;
  }

  HttpUrl url() {
    return url;
  }

  /** The intent id, or null when the call names none. */
  String intentId() {
    return intentId;
  }

  /** The key every attempt carries, or null for an operation without one. */
  IdempotencyKey key() {
    return key;
  }

  /** The fingerprint an intent records, or null when the call names no intent. */
  String fingerprint() {
    return fingerprint;
  }

  /** The exact body bytes and content type, or null when the request has no body. */
  EncodedBody body() {
    return body;
  }

  /** What may not leave through messages and logs: the API key and the call's credentials. */
  Redaction redaction() {
    return redaction;
  }

  /** Returns the request of one attempt: the same bytes and key, a fresh request id. */
  Request.Builder forAttempt(AttemptStarted attempt) {
    Request.Builder b =
        template
            .newBuilder()
            .header("X-Request-Id", attempt.requestId())
            .tag(AttemptStarted.class, attempt);
    if (attemptHeader != null) {
      b.header(attemptHeader, Integer.toString(attempt.attempt()));
    }
    return b;
  }
}
