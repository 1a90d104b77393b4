package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The store's view of the log: every live intent's latest record, by offset in {@link IntentTable};
 * pending intents also in full, since they are few and are listed after a restart. A completed
 * intent is read back from the log when it is asked for (a re-drive, a duplicate, a {@code find}),
 * which keeps a completed intent at a few dozen bytes of heap.
 *
 * <p>Not thread-safe: the store's lock guards it.
 */
final class IntentIndex {
  /** Reads a record of the log: the payload of the frame at an offset. */
  interface Frames {
    PayloadReader read(long offset);
  }

  private record Id(int scopeId, String intentId) {}

  /** A pending intent: its record, the sequence number of its begin, its frame's length. */
  record Pending(IntentRecord record, long beginSeq, int frameLength, long order) {}

  /** A live intent as found: pending (with its {@link Pending}) or completed (read back). */
  record Found(
      long hash, int scopeId, IntentRecord record, Pending pending, long offset, int frame) {
    boolean isPending() {
      return pending != null;
    }
  }

  private final Scopes scopes = new Scopes();
  private final IntentTable table = new IntentTable();
  private final Map<Id, Pending> pending = new HashMap<>();
  private Frames frames;
  private long liveBytes;
  private long order;

  void readFrom(Frames frames) {
    this.frames = frames;
  }

  Scopes scopes() {
    return scopes;
  }

  IntentTable table() {
    return table;
  }

  int size() {
    return table.size();
  }

  int pendingCount() {
    return pending.size();
  }

  /** The bytes of the log's latest records: what a compaction keeps. */
  long liveBytes() {
    return liveBytes;
  }

  void addLiveBytes(long delta) {
    liveBytes += delta;
  }

  /** The live intent {@code intentId} of {@code scope}, or null. */
  Found find(IntentScope scope, String intentId) {
    int scopeId = scopes.idOf(scope);
    if (scopeId < 0) {
      return null;
    }
    long hash = IntentHash.of(scopeId, intentId);
    Pending p = pending.get(new Id(scopeId, intentId));
    if (p != null) {
      return new Found(hash, scopeId, p.record(), p, -1, p.frameLength());
    }
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      long offset = table.offset(slot);
      if (!IntentTable.isPending(offset)) {
        PayloadReader in = frames.read(offset);
        int frame = LogFormat.FRAME_HEADER_SIZE + in.remaining();
        IntentRecord record = CompactCodec.decode(in, scopes);
        if (record.intentId().equals(intentId) && record.scope().equals(scope)) {
          return new Found(hash, scopeId, record, null, offset, frame);
        }
      }
    }
    return null;
  }

  /** Records a new pending intent, replacing {@code replaced} (a completed one) if not null. */
  void addPending(
      Found replaced, int scopeId, IntentRecord record, long offset, int frame, long seq) {
    if (replaced != null) {
      remove(replaced);
    }
    long hash = IntentHash.of(scopeId, record.intentId());
    table.add(hash, offset | IntentTable.PENDING);
    pending.put(new Id(scopeId, record.intentId()), new Pending(record, seq, frame, order++));
    liveBytes += frame;
  }

  /** Points a live intent at its completion record, which holds it in full. */
  void complete(Found existing, long offset, int frame) {
    int slot = slotOf(existing);
    table.set(slot, offset);
    if (existing.isPending()) {
      pending.remove(new Id(existing.scopeId(), existing.record().intentId()));
    }
    liveBytes += frame - existing.frame();
  }

  /** Forgets a live intent. */
  void remove(Found existing) {
    table.remove(slotOf(existing));
    if (existing.isPending()) {
      pending.remove(new Id(existing.scopeId(), existing.record().intentId()));
    }
    liveBytes -= existing.frame();
  }

  private int slotOf(Found found) {
    if (!found.isPending()) {
      return table.slotOf(found.hash(), found.offset());
    }
    int only = -1;
    int candidates = 0;
    for (int slot = table.probe(found.hash(), -1);
        slot >= 0;
        slot = table.probe(found.hash(), slot)) {
      if (IntentTable.isPending(table.offset(slot))) {
        only = slot;
        candidates++;
      }
    }
    if (candidates == 1) {
      return only; // the intent is pending, so it has a slot, and this is the only one it can be
    }
    for (int slot = table.probe(found.hash(), -1);
        slot >= 0;
        slot = table.probe(found.hash(), slot)) {
      long offset = table.offset(slot);
      if (IntentTable.isPending(offset)
          && CompactCodec.decode(frames.read(offset), scopes)
              .intentId()
              .equals(found.record().intentId())) {
        return slot;
      }
    }
    throw new IllegalStateException("a pending intent is missing from the index");
  }

  /** Adds a pending intent read from the log while it is opened. */
  void loadPending(int scopeId, IntentRecord record, int frame) {
    pending.put(new Id(scopeId, record.intentId()), new Pending(record, 0, frame, order++));
  }

  /** The pending records, oldest first; equal creation times in log order. */
  List<IntentRecord> pending() {
    List<Pending> list = new ArrayList<>(pending.values());
    list.sort(
        Comparator.comparing((Pending p) -> p.record().createdAt())
            .thenComparingLong(Pending::order));
    List<IntentRecord> records = new ArrayList<>(list.size());
    list.forEach(p -> records.add(p.record()));
    return records;
  }

  /** Forgets pending intents whose begin record was never made durable: a failed sync lost them. */
  void forgetAbove(long durableSeq) {
    List<Found> lost = new ArrayList<>();
    for (Iterator<Map.Entry<Id, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Id, Pending> e = it.next();
      Pending p = e.getValue();
      if (p.beginSeq() > durableSeq) {
        int scopeId = e.getKey().scopeId();
        long hash = IntentHash.of(scopeId, p.record().intentId());
        lost.add(new Found(hash, scopeId, p.record(), p, -1, p.frameLength()));
      }
    }
    lost.forEach(this::remove);
  }

  /** Whether a new candidate at {@code now} replaces {@code existing}: completed and expired. */
  static boolean replaceable(IntentRecord existing, Instant now) {
    return existing.state() != IntentState.PENDING && existing.isExpired(now);
  }
}
