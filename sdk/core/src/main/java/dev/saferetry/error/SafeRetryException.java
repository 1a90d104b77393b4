package dev.saferetry.error;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The root of everything a SafeRetry call throws instead of returning a result. The hierarchy is
 * closed and has one branch per {@link Outcome}, so a caller that handles the three branches has
 * handled every way a call can end:
 *
 * <pre>{@code
 * try {
 *   CallResult<Charge> charge = client.execute(CREATE_CHARGE, params, options);
 * } catch (OutcomeUnknownException e) {   // UNKNOWN: retry the same intent later (same key),
 *                                          // or reconcile it if e.reason().mustReconcile()
 * } catch (CallFailedException e) {       // FAILED: the effect does not exist
 * } catch (ResponseBodyException e) {     // SUCCEEDED, but the 2xx body could not be read
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link CallFailedException} ({@link Outcome#FAILED}) — a definitive answer or proof that
 *       nothing was sent; {@link ApiException} for an error answer, {@link
 *       IdempotencyKeyReusedException} when the server refused a reused key.
 *   <li>{@link OutcomeUnknownException} ({@link Outcome#UNKNOWN}) — the effect may exist.
 *   <li>{@link ResponseBodyException} ({@link Outcome#SUCCEEDED}) — the effect exists, the body
 *       could not be read.
 * </ul>
 *
 * <p>The cause within a branch is the {@link #reason()}, a {@link Reason} whose {@link
 * Reason#outcome() outcome} is the branch's. Every exception carries the idempotency key (so the
 * caller can retry the same intent) and the attempt history as it happened on the wire. Messages
 * are safe to log: they name statuses, error codes, request ids and the key, never bodies or
 * credentials. The SDK creates these exceptions; the public constructors of the concrete types
 * exist so that the SDK's call machinery, and a caller's tests, can create them too.
 *
 * <p>Instances are immutable and thread-safe.
 */
public abstract sealed class SafeRetryException extends RuntimeException
    permits CallFailedException, OutcomeUnknownException, ResponseBodyException {
  private static final long serialVersionUID = 1L;

  private final transient IdempotencyKey key;

  /** The intent id of the call, or null. */
  private final String intentId;

  private final transient List<Attempt> attempts;

  private final transient ResponseView response;

  SafeRetryException(
      String message,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      ResponseView response,
      Throwable cause) {
    super(describe(message, key, intentId, attempts), cause);
    this.key = key;
    this.intentId = intentId;
    this.attempts = List.copyOf(attempts);
    this.response = response;
  }

  private static String describe(
      String message, IdempotencyKey key, String intentId, List<Attempt> attempts) {
    StringBuilder sb = new StringBuilder(Objects.requireNonNull(message, "message"));
    sb.append(" [");
    if (key != null) {
      sb.append("idempotency key ").append(key.value()).append(", ");
    }
    if (intentId != null) {
      sb.append("intent ").append(intentId).append(", ");
    }
    sb.append(attempts.size()).append(attempts.size() == 1 ? " attempt" : " attempts");
    if (!attempts.isEmpty()) {
      sb.append(": ").append(attempts);
    }
    return sb.append(']').toString();
  }

  /**
   * {@return why the call ended; its {@link Reason#outcome() outcome} is this exception's {@link
   * #outcome()}}
   */
  public abstract Reason reason();

  /** {@return the key every attempt carried, or {@code null} for an operation without one} */
  public IdempotencyKey key() {
    return key;
  }

  /** {@return the intent id of the call, or {@code null}} */
  public String intentId() {
    return intentId;
  }

  /** {@return the attempts made by this call, in order; empty when nothing was sent} */
  public List<Attempt> attempts() {
    return attempts == null ? List.of() : attempts;
  }

  /**
   * {@return the last answer the call got — status, headers, the server's request id, the replay
   * flag, and the body bytes when {@linkplain dev.saferetry.RequestOptions#withKeepBody asked for}
   * — or empty when no attempt got an answer}
   */
  public Optional<ResponseView> response() {
    return Optional.ofNullable(response);
  }

  /** {@return how the call ended: the outcome of its {@link #reason()}} */
  public Outcome outcome() {
    return reason().outcome();
  }

  /**
   * {@return whether the effect may exist: retry the same intent (same key) later, or reconcile it
   * with the provider when its reason {@linkplain Reason#mustReconcile() says so}}
   */
  public boolean isOutcomeUnknown() {
    return outcome() == Outcome.UNKNOWN;
  }
}
