package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.internal.Errors;
import dev.saferetry.internal.Redaction;
import java.util.List;

/**
 * The server gave a definitive, non-retryable error answer (for example 400, 401, 402, 403, 404, a
 * 3xx, or a retryable status that a should-retry header declared final). The outcome is FAILED with
 * reason {@link Reason#REJECTED} ({@link Reason#KEY_REUSED} for its subclass {@link
 * IdempotencyKeyReusedException}): the request was rejected and retrying it unchanged will not
 * help.
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
public sealed class ApiException extends CallFailedException permits IdempotencyKeyReusedException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status. */
  private final int status;

  /** The error type from the body, or null. */
  private final String errorType;

  /** The error code from the body, or null. */
  private final String errorCode;

  /** The error message from the body, or null. */
  private final String errorMessage;

  /** The error body text, masked and capped. */
  private final String errorBody;

  ApiException(Reason reason, Errors.ApiError error, Errors.Trail trail) {
    super(reason, summary(error, trail.attempts()), trail, null);
    this.status = error.status();
    this.errorType = error.type();
    this.errorCode = error.code();
    this.errorMessage = error.message();
    this.errorBody = error.body() == null ? "" : error.body();
  }

  /** The message: server-supplied text reduced to one capped line of printable ASCII. */
  private static String summary(Errors.ApiError error, List<Attempt> attempts) {
    StringBuilder sb = new StringBuilder("HTTP ").append(error.status());
    if (error.type() != null) {
      sb.append(' ').append(Redaction.printable(error.type()));
    }
    if (error.code() != null) {
      sb.append(" (").append(Redaction.printable(error.code())).append(')');
    }
    if (!attempts.isEmpty()) {
      String rid = attempts.get(attempts.size() - 1).serverRequestId();
      if (rid != null) {
        sb.append(", server request id ").append(Redaction.printable(rid));
      }
    }
    return sb.toString();
  }

  /**
   * Returns the HTTP status.
   *
   * @return the status of the answer
   */
  public int status() {
    return status;
  }

  /**
   * Returns the error type from the body (e.g. {@code invalid_request_error}), or null.
   *
   * @return the type, or null
   */
  public String errorType() {
    return errorType;
  }

  /**
   * Returns the error code from the body (e.g. {@code card_declined}), or null.
   *
   * @return the code, or null
   */
  public String errorCode() {
    return errorCode;
  }

  /**
   * Returns the human-readable error message from the body, or null. Not logged by the SDK.
   *
   * @return the message, or null
   */
  public String errorMessage() {
    return errorMessage;
  }

  /**
   * Returns the raw error body text (at most 64 KiB), or {@code ""}. Not logged by the SDK.
   *
   * @return the body text
   */
  public String errorBody() {
    return errorBody;
  }
}
