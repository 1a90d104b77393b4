package dev.saferetry.error;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * The server answered 422 — or, as Stripe does, 400 with error type {@code idempotency_error} —
 * because this idempotency key was already used with a different request. Nothing was executed for
 * this request. This is a bug in the caller (a key reused for another intent, or a payload that
 * changed between retries), never something to retry. Its reason is {@link Reason#KEY_REUSED}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IdempotencyKeyReusedException extends ApiException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception of a server's refusal of a reused key, with reason {@link
   * Reason#KEY_REUSED}. The SDK's call machinery creates it, with the server's text already masked
   * and capped; a caller may create one to test the code that handles it. The message is made as
   * {@link ApiException}'s.
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
  public IdempotencyKeyReusedException(
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
        Reason.KEY_REUSED,
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
}
