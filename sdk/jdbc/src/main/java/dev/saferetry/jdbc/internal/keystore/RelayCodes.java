package dev.saferetry.jdbc.internal.keystore;

import java.sql.SQLException;

/**
 * The codes stored in {@code relay_state} and {@code hold_reason}; never enum ordinals.
 *
 * <p>Stateless and thread-safe.
 */
public final class RelayCodes {
  public static final int QUEUED = 0;
  public static final int DONE = 1;
  public static final int HELD = 2;
  public static final int ABANDONED = 3;

  private RelayCodes() {}

  /** Why a row is held, as the table records it (the API's hold reasons, one for one). */
  public enum Hold {
    /** Too old to send. */
    EXPIRED,
    /** Definitively rejected by the provider. */
    REJECTED,
    /** Changed in the table after it was enqueued, or unreadable. */
    TAMPERED,
    /** Cannot be sent exactly as stored through the relay's client. */
    UNSENDABLE,
    /** An answer a re-send cannot change and that proves nothing. */
    UNSETTLED,
    /** Claimed as many times as the relay allows without a definitive answer. */
    TOO_MANY_ATTEMPTS
  }

  public static int code(Hold reason) {
    return switch (reason) {
      case EXPIRED -> 1;
      case REJECTED -> 2;
      case TAMPERED -> 3;
      case UNSENDABLE -> 4;
      case UNSETTLED -> 5;
      case TOO_MANY_ATTEMPTS -> 6;
    };
  }

  public static Hold reason(int code) throws SQLException {
    return switch (code) {
      case 1 -> Hold.EXPIRED;
      case 2 -> Hold.REJECTED;
      case 3 -> Hold.TAMPERED;
      case 4 -> Hold.UNSENDABLE;
      case 5 -> Hold.UNSETTLED;
      case 6 -> Hold.TOO_MANY_ATTEMPTS;
      default -> throw new SQLException("unknown hold reason code " + code + " in the table");
    };
  }
}
