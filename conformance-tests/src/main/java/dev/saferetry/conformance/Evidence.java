package dev.saferetry.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * What one case observed (statuses, ids, counts), printed in the summary and the reports. Never
 * holds header values. Thread-safe.
 */
public final class Evidence {
  private final List<String> notes = new ArrayList<>();

  /** Records one observation. */
  public synchronized void note(String observation) {
    notes.add(observation);
  }

  @Override
  public synchronized String toString() {
    return String.join("; ", notes);
  }
}
