package dev.saferetry.conformance;

/**
 * The server was seen to break a case. The message says what was seen, in plain words.
 *
 * <p>A failure may name the earlier case whose failure alone would explain it ({@link #builtOn}): a
 * replay check that fails because replays do not work at all says nothing new once {@code
 * replay.basic} FAILED, and would blame something else. Such a failure is reported as NOT RUN
 * naming that case when it FAILED in the same run, and as a failure otherwise. A failure that shows
 * a second side effect or a second resource never names one: it is a finding of its own, whatever
 * failed before.
 */
final class CaseFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The case whose failure would explain this one, or null. */
  private final String builtOn;

  CaseFailure(String message) {
    this(message, null);
  }

  CaseFailure(String message, String builtOn) {
    super(message, null, false, false);
    this.builtOn = builtOn;
  }

  /** {@return the id of the case whose failure alone would explain this one, or null} */
  String builtOn() {
    return builtOn;
  }
}
