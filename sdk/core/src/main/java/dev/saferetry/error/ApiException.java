package dev.saferetry.error;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
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

  /**
   * Creates the exception of a definitive error answer, with reason {@link Reason#REJECTED}. The
   * SDK's call machinery creates it, with the server's text already masked and capped; a caller may
   * create one to test the code that handles it. The message shows the status, type, code and the
   * last attempt's server request id, each reduced to one capped line of printable ASCII, followed
   * by the key, the intent id and the attempts.
   *
   * @param status the HTTP status
   * @param errorType the error type from the body, or null
   * @param errorCode the error code from the body, or null
   * @param errorMessage the error message from the body, or null
   * @param errorBody the error body text, or null for none
   * @param key the key every attempt carried, or null
   * @param intentId the intent id of the call, or null
   * @param attempts the attempts the call made, in order; empty when nothing was sent
   * @param response the last answer the call got, or null
   */
  public ApiException(
      int status,
      String errorType,
      String errorCode,
      String errorMessage,
      String errorBody,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      ResponseView response) {
    this(
        Reason.REJECTED,
        status,
        errorType,
        errorCode,
        errorMessage,
        errorBody,
        key,
        intentId,
        attempts,
        response);
  }

  ApiException(
      Reason reason,
      int status,
      String errorType,
      String errorCode,
      String errorMessage,
      String errorBody,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      ResponseView response) {
    super(
        reason,
        summary(status, errorType, errorCode, attempts),
        key,
        intentId,
        attempts,
        response,
        null);
    this.status = status;
    this.errorType = errorType;
    this.errorCode = errorCode;
    this.errorMessage = errorMessage;
    this.errorBody = errorBody == null ? "" : errorBody;
  }

  // The message: server-supplied text reduced to one capped line of printable ASCII.
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

  /** {@return the HTTP status} */
  public int status() {
    return status;
  }

  /** {@return the error type from the body (e.g. {@code invalid_request_error}), or null} */
  public String errorType() {
    return errorType;
  }

  /** {@return the error code from the body (e.g. {@code card_declined}), or null} */
  public String errorCode() {
    return errorCode;
  }

  /** {@return the human-readable error message from the body, or null} Not logged by the SDK. */
  public String errorMessage() {
    return errorMessage;
  }

  /** {@return the raw error body text (at most 64 KiB), or {@code ""}} Not logged by the SDK. */
  public String errorBody() {
    return errorBody;
  }
}
