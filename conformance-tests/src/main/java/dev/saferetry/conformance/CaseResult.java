package dev.saferetry.conformance;

import java.util.List;
import java.util.Objects;

/**
 * The verdict on one case, with what was seen.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id stable case id, e.g. {@code replay.same-payload}
 * @param level effective level under the run's profile
 * @param description one line: what a conforming server does
 * @param verdict PASS, FAIL, NOT_RUN or ERROR
 * @param message why it failed or did not run, in plain words; empty on a pass
 * @param notes short observations (statuses, ids, counts), in order
 * @param exchanges the HTTP exchanges the case made, redacted and cut
 */
public record CaseResult(
    String id,
    Level level,
    String description,
    Verdict verdict,
    String message,
    List<String> notes,
    List<Exchange> exchanges) {

  /** Copies the lists and rejects nulls. */
  public CaseResult {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(verdict, "verdict");
    message = Objects.requireNonNullElse(message, "");
    notes = List.copyOf(notes);
    exchanges = List.copyOf(exchanges);
  }

  /** Whether this is a failed MUST case. */
  public boolean mustFailed() {
    return level == Level.MUST && verdict == Verdict.FAIL;
  }

  /** Whether this is a MUST case that did not run or broke off: the server is not proven. */
  public boolean mustUnproven() {
    return level == Level.MUST && (verdict == Verdict.NOT_RUN || verdict == Verdict.ERROR);
  }

  /** The notes joined with {@code ; }. */
  public String evidence() {
    return String.join("; ", notes);
  }
}
