package dev.saferetry.error;

import dev.saferetry.Outcome;

/**
 * Why a call ended as it did: the {@link SafeRetryException#reason() reason} of an exception, one
 * enum per outcome, so that the outcome can always be read off the reason.
 *
 * <ul>
 *   <li>{@link FailedReason} — the effect does not exist ({@link Outcome#FAILED});
 *   <li>{@link UnknownReason} — the effect may or may not exist ({@link Outcome#UNKNOWN});
 *   <li>{@link SucceededReason} — the effect exists, but the answer could not be read ({@link
 *       Outcome#SUCCEEDED}).
 * </ul>
 *
 * <p>Implementations are the three enums; instances are immutable and thread-safe.
 */
public sealed interface Reason permits FailedReason, UnknownReason, SucceededReason {

  /**
   * Returns the outcome every call that ends for this reason has.
   *
   * @return the outcome every call that ends for this reason has
   */
  Outcome outcome();

  /**
   * Returns the constant's name, e.g. {@code "DEADLINE_EXCEEDED"}.
   *
   * @return the constant's name, for example {@code "DEADLINE_EXCEEDED"}
   */
  String name();
}
