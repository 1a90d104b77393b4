package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's in-memory view of the log: the current record of every intent, and the sequence
 * number of the begin record that must be durable before the intent's key may be used.
 *
 * <p>Not thread-safe: the store's lock guards it.
 */
final class IntentIndex {
  private record Id(IntentScope scope, String intentId) {}

  /** A record and the sequence number of its begin record (0 if it was read from the file). */
  record Entry(IntentRecord record, long beginSeq) {}

  // insertion order breaks ties in pending(): equal creation times list in log order
  private final Map<Id, Entry> entries = new LinkedHashMap<>();

  Entry get(IntentScope scope, String intentId) {
    return entries.get(new Id(scope, intentId));
  }

  int size() {
    return entries.size();
  }

  /** Applies a log entry appended with sequence number {@code seq}. */
  void apply(LogEntry entry, long seq) {
    Id id = new Id(entry.scope(), entry.intentId());
    if (entry instanceof LogEntry.Begin begin) {
      entries.put(id, new Entry(begin.record(), seq));
    } else if (entry instanceof LogEntry.Complete c) {
      Entry existing = entries.get(id);
      if (existing != null && existing.record().key().equals(c.key())) {
        IntentRecord done = existing.record().complete(c.state(), c.status(), c.resourceId());
        entries.put(id, new Entry(done, existing.beginSeq()));
      }
    } else {
      entries.remove(id);
    }
  }

  /** Whether a new candidate at {@code now} replaces {@code existing}: completed and expired. */
  static boolean replaceable(IntentRecord existing, Instant now) {
    return existing.state() != IntentState.PENDING && existing.isExpired(now);
  }

  /** The pending records, oldest first. */
  List<IntentRecord> pending() {
    List<IntentRecord> result = new ArrayList<>();
    for (Entry entry : entries.values()) {
      if (entry.record().state() == IntentState.PENDING) {
        result.add(entry.record());
      }
    }
    result.sort(Comparator.comparing(IntentRecord::createdAt));
    return result;
  }

  /** Every record not replaceable at {@code now}, oldest first: what a compacted log keeps. */
  List<IntentRecord> live(Instant now) {
    List<IntentRecord> live = new ArrayList<>();
    for (Entry entry : entries.values()) {
      if (!replaceable(entry.record(), now)) {
        live.add(entry.record());
      }
    }
    live.sort(Comparator.comparing(IntentRecord::createdAt));
    return live;
  }

  /** Drops the records replaceable at {@code now} and returns how many there were. */
  int removeExpired(Instant now) {
    int before = entries.size();
    entries.values().removeIf(entry -> replaceable(entry.record(), now));
    return before - entries.size();
  }

  /** Forgets records whose begin record was never made durable: a failed sync lost them. */
  void forgetAbove(long durableSeq) {
    entries.values().removeIf(entry -> entry.beginSeq() > durableSeq);
  }
}
