package dev.saferetry.testing.provider;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The armed faults, in the order they were armed. Each request takes the first one that matches it,
 * which then has one use less. Thread-safe.
 */
final class ArmedFaults {
  private static final class Slot {
    final Fault fault;
    final OperationPattern pattern;
    int left;

    Slot(Fault fault) {
      this.fault = fault;
      this.pattern = fault.operation() == null ? null : OperationPattern.parse(fault.operation());
      this.left = fault.times();
    }
  }

  private final List<Slot> slots = new ArrayList<>();

  synchronized void arm(Fault fault) {
    slots.add(new Slot(fault));
  }

  /** Takes one use of the first fault that matches, or returns null. */
  synchronized Fault take(String method, String path) {
    for (Iterator<Slot> it = slots.iterator(); it.hasNext(); ) {
      Slot slot = it.next();
      if (slot.pattern == null || slot.pattern.matches(method, path)) {
        if (--slot.left == 0) {
          it.remove();
        }
        return slot.fault;
      }
    }
    return null;
  }

  /** The faults still armed, each with the uses it has left. */
  synchronized List<Fault> armed() {
    List<Fault> out = new ArrayList<>();
    for (Slot slot : slots) {
      out.add(slot.fault.times(slot.left));
    }
    return List.copyOf(out);
  }

  synchronized void clear() {
    slots.clear();
  }
}
