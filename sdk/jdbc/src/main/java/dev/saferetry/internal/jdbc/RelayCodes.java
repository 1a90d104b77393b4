package dev.saferetry.internal.jdbc;

import dev.saferetry.jdbc.HoldReason;
import java.sql.SQLException;

/**
 * The codes stored in {@code relay_state} and {@code hold_reason}; never enum ordinals. *
 *
 * <p>Stateless and thread-safe.
 */
final class RelayCodes {
  static final int QUEUED = 0;
  static final int DONE = 1;
  static final int HELD = 2;

  private RelayCodes() {}

  static int code(HoldReason reason) {
    return switch (reason) {
      case EXPIRED -> 1;
      case REJECTED -> 2;
      case TAMPERED -> 3;
      case UNSENDABLE -> 4;
      case UNSETTLED -> 5;
    };
  }

  static HoldReason reason(int code) throws SQLException {
    return switch (code) {
      case 1 -> HoldReason.EXPIRED;
      case 2 -> HoldReason.REJECTED;
      case 3 -> HoldReason.TAMPERED;
      case 4 -> HoldReason.UNSENDABLE;
      case 5 -> HoldReason.UNSETTLED;
      default -> throw new SQLException("unknown hold reason code " + code + " in the table");
    };
  }
}
