package dev.saferetry.examples.demo;

import java.io.PrintStream;
import java.util.List;

/**
 * What an example did: the attempts on the wire, and the charges the caller intended next to the
 * charges the server made. A scenario passes when they are equal and no intent is left pending;
 * more on the server is a duplicate, fewer (or a pending intent) is a lost intent.
 *
 * @param scenario the scenario's name, e.g. {@code lost-response}
 * @param intended the charges the caller meant to make
 * @param sideEffects the charges the server executed
 * @param pendingIntents intents still pending in the client's key store at the end
 * @param wire the attempts and notes, in order
 *     <p>Immutable and thread-safe.
 */
public record Report(
    String scenario, long intended, long sideEffects, int pendingIntents, List<WireLog.Row> wire) {
  private static final int MAX_ROWS = 14;

  /** Copies the rows. */
  public Report {
    wire = List.copyOf(wire);
  }

  /** Returns one report of several scenarios' counts and rows, each's rows under its name. */
  public static Report combine(String scenario, Report... parts) {
    long intended = 0;
    long sideEffects = 0;
    int pending = 0;
    List<WireLog.Row> rows = new java.util.ArrayList<>();
    for (Report part : parts) {
      intended += part.intended;
      sideEffects += part.sideEffects;
      pending += part.pendingIntents;
      rows.add(WireLog.Row.note(part.scenario));
      rows.addAll(part.wire);
    }
    return new Report(scenario, intended, sideEffects, pending, rows);
  }

  /** Returns whether the server made more charges than the caller intended. */
  public boolean duplicate() {
    return sideEffects > intended;
  }

  /** Returns whether an intended charge is missing or still pending. */
  public boolean lostIntent() {
    return sideEffects < intended || pendingIntents > 0;
  }

  /** Returns whether the scenario ended with exactly the intended charges. */
  public boolean passed() {
    return !duplicate() && !lostIntent();
  }

  /** Returns the one-line verdict, e.g. {@code PASS lost-response: intended 1, server 1}. */
  public String verdict() {
    String why = duplicate() ? " DUPLICATE" : lostIntent() ? " LOST INTENT" : "";
    return String.format(
        "%s %-18s intended %d, server side effects %d, pending %d%s",
        passed() ? "PASS" : "FAIL", scenario, intended, sideEffects, pendingIntents, why);
  }

  /** Prints the wire table and the counts. */
  public void print(PrintStream out) {
    if (wire.isEmpty()) {
      out.println("  (no wire log: the example installs its own listener)");
    } else {
      printRows(out);
    }
    out.printf(
        "  intended charges: %d, server side effects: %d, pending intents: %d%n",
        intended, sideEffects, pendingIntents);
  }

  private void printRows(PrintStream out) {
    out.printf(
        "  %-3s %-18s %-36s %-35s %-15s %s%n",
        "#", "intent", "idempotency key", "request id", "status/fault", "delay before");
    int shown = 0;
    for (WireLog.Row r : wire) {
      if (shown++ == MAX_ROWS) {
        out.printf("  ... %d more rows%n", wire.size() - MAX_ROWS);
        break;
      }
      if (r.isAttempt()) {
        out.printf(
            "  %-3d %-18s %-36s %-35s %-15s %d ms%s%n",
            r.attempt(),
            r.intentId(),
            r.key(),
            r.requestId(),
            r.result(),
            r.delayBefore().toMillis(),
            r.serverHint() ? " (Retry-After)" : "");
      } else {
        out.printf("  -- %s%n", r.note());
      }
    }
  }
}
