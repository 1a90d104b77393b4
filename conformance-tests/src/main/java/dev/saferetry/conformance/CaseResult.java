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

  /**
   * Creates a result, copying the lists.
   *
   * @param id stable case id, e.g. {@code replay.same-payload}
   * @param level effective level under the run's profile
   * @param description one line: what a conforming server does
   * @param verdict PASS, FAIL, NOT_RUN or ERROR
   * @param message why it failed or did not run, in plain words; null or empty on a pass
   * @param notes short observations (statuses, ids, counts), in order
   * @param exchanges the HTTP exchanges the case made, redacted and cut
   * @throws NullPointerException if {@code id}, {@code level}, {@code description}, {@code
   *     verdict}, {@code notes} or {@code exchanges} is null
   */
  public CaseResult {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(verdict, "verdict");
    message = Objects.requireNonNullElse(message, "");
    notes = List.copyOf(notes);
    exchanges = List.copyOf(exchanges);
  }

  /** {@return whether this is a failed MUST case: one such result makes the run exit 1} */
  public boolean mustFailed() {
    return level == Level.MUST && verdict == Verdict.FAIL;
  }

  /**
   * {@return whether this is a MUST case that did not run or broke off, so that the server is not
   * proven safe for it}
   */
  public boolean mustUnproven() {
    return level == Level.MUST && (verdict == Verdict.NOT_RUN || verdict == Verdict.ERROR);
  }

  /** {@return the notes joined with {@code ; }, as one line of evidence} */
  public String evidence() {
    return String.join("; ", notes);
  }
}
