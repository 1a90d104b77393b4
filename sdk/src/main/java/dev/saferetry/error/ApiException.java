package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.internal.Redaction;
import java.util.List;

/**
 * The server gave a definitive, non-retryable error answer (for example 400, 401, 402, 403, 404, or
 * a retryable status that a should-retry header declared final). The outcome is {@link
 * Outcome#FAILED}: the request was rejected and retrying it unchanged will not help.
 *
 * <p>The error body is parsed when it is JSON in the common shapes ({@code
 * {"error":{"type","code","message"}}} or the same fields at the top level); otherwise the typed
 * fields are {@code null} and {@link #errorBody()} holds the text (at most 64 KiB). The body is
 * never part of {@link #getMessage()}; the message shows the type, code and server request id as
 * one line of printable ASCII, each capped at 128 characters. A credential of the call (the API
 * key, an {@code Authorization} or other credential header) that the server echoes is masked as
 * {@code [redacted]} in every field, the body included.
 *
 * <p>Instances are immutable and thread-safe.
 */
public sealed class ApiException extends SafeRetryException permits IdempotencyKeyReusedException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String errorType;
  private final String errorCode;
  private final String errorMessage;
  private final String errorBody;

  /** Creates the exception; see the accessors for the parameters. */
  public ApiException(
      int status,
      String errorType,
      String errorCode,
      String errorMessage,
      String errorBody,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts) {
    super(
        summary(status, errorType, errorCode, attempts),
        Outcome.FAILED,
        key,
        intentId,
        attempts,
        null);
    this.status = status;
    this.errorType = errorType;
    this.errorCode = errorCode;
    this.errorMessage = errorMessage;
    this.errorBody = errorBody == null ? "" : errorBody;
  }

  /** The message: server-supplied text reduced to one capped line of printable ASCII. */
  private static String summary(int status, String type, String code, List<Attempt> attempts) {
    StringBuilder sb = new StringBuilder("HTTP ").append(status);
    if (type != null) {
      sb.append(' ').append(Redaction.printable(type));
    }
    if (code != null) {
      sb.append(" (").append(Redaction.printable(code)).append(')');
    }
    if (!attempts.isEmpty()) {
      String rid = attempts.get(attempts.size() - 1).serverRequestId();
      if (rid != null) {
        sb.append(", server request id ").append(Redaction.printable(rid));
      }
    }
    return sb.toString();
  }

  /** Returns the HTTP status. */
  public int status() {
    return status;
  }

  /** Returns the error type from the body (e.g. {@code invalid_request_error}), or null. */
  public String errorType() {
    return errorType;
  }

  /** Returns the error code from the body (e.g. {@code card_declined}), or null. */
  public String errorCode() {
    return errorCode;
  }

  /** Returns the human-readable error message from the body, or null. Not logged by the SDK. */
  public String errorMessage() {
    return errorMessage;
  }

  /** Returns the raw error body text (at most 64 KiB), or {@code ""}. Not logged by the SDK. */
  public String errorBody() {
    return errorBody;
  }
}
