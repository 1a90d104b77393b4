package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's view of the log: where every live intent's latest record is, in {@link IntentTable},
 * and the pending intents, which are few and are listed after a restart, by intent id. A completed
 * intent is read back from the log when it is asked for (a re-drive, a duplicate, a {@code find}),
 * which keeps it at a few dozen bytes of heap; a pending intent read from the log on open keeps its
 * record's bytes, decoded when asked for.
 *
 * <p>Not thread-safe: the store's lock guards it.
 */
final class IntentIndex {
  /** Reads a record of the log: the payload of the frame at an offset. */
  interface Frames {
    PayloadReader read(long offset);
  }

  private record Id(int scopeId, String intentId) {}

  /**
   * A pending intent: its record, or the bytes of its begin record if it was read from the log; the
   * sequence number of its begin (0 if read from the log); its frame's length; its rank in the log,
   * which orders intents created at the same instant.
   */
  static final class Pending {
    private final Object content;
    private final long beginSeq;
    private final int frameLength;
    private final long order;

    Pending(Object content, long beginSeq, int frameLength, long order) {
      this.content = content;
      this.beginSeq = beginSeq;
      this.frameLength = frameLength;
      this.order = order;
    }

    long beginSeq() {
      return beginSeq;
    }

    IntentRecord record(Scopes scopes) {
      if (content instanceof IntentRecord record) {
        return record;
      }
      byte[] payload = (byte[]) content;
      return decode(new PayloadReader().reset(payload, 0, payload.length), scopes);
    }
  }

  /** A live intent as found: pending (with its {@link Pending}) or completed (read back). */
  record Found(
      long hash, int scopeId, IntentRecord record, Pending pending, long offset, int frame) {
    boolean isPending() {
      return pending != null;
    }
  }

  private final Scopes scopes = new Scopes();
  private final IntentTable table;
  private Map<Id, Pending> pending = new HashMap<>();
  private Frames frames;
  private long liveBytes;
  private long order;

  /** An empty index with room for about {@code expected} intents before its table grows. */
  IntentIndex(int expected) {
    table = new IntentTable(expected);
  }

  IntentIndex() {
    this(16);
  }

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
      return new Found(hash, scopeId, p.record(scopes), p, -1, p.frameLength);
    }
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      long offset = table.offset(slot);
      if (!IntentTable.isPending(offset)) {
        PayloadReader in = frames.read(offset);
        int frame = LogFormat.FRAME_HEADER_SIZE + in.remaining();
        IntentRecord record = decode(in, scopes);
        if (record.intentId().equals(intentId) && record.scope().equals(scope)) {
          return new Found(hash, scopeId, record, null, offset, frame);
        }
      }
    }
    return null;
  }

  /**
   * Decodes a record the index points to.
   *
   * @throws KeyStoreException if it is not a valid record: the log was changed under the store
   */
  static IntentRecord decode(PayloadReader in, Scopes scopes) {
    try {
      return CompactCodec.decode(in, scopes);
    } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
      throw new KeyStoreException(
          "a record of the key store's log cannot be read ("
              + e.getMessage()
              + "); nothing was"
              + " changed. Move the store's files aside or restore them, then reopen.");
    }
  }

  /** Records a new pending intent, replacing {@code replaced} (a completed one) if not null. */
  void addPending(
      Found replaced, int scopeId, IntentRecord record, long offset, int frame, long seq) {
    if (replaced != null) {
      remove(replaced);
    }
    table.add(IntentHash.of(scopeId, record.intentId()), offset | IntentTable.PENDING);
    pending.put(new Id(scopeId, record.intentId()), new Pending(record, seq, frame, order++));
    liveBytes += frame;
  }

  /** Points a live intent at its completion record, which holds it in full. */
  void complete(Found existing, long offset, int frame) {
    table.set(slotOf(existing), offset);
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
    return pendingSlot(found.hash(), found.record().intentId());
  }

  /** The slot of a pending intent, which the table holds. */
  private int pendingSlot(long hash, String intentId) {
    int only = -1;
    int candidates = 0;
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      if (IntentTable.isPending(table.offset(slot))) {
        only = slot;
        candidates++;
      }
    }
    if (candidates == 1) {
      return only; // the intent is pending, so it has a slot, and this is the only one it can be
    }
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      long offset = table.offset(slot);
      if (IntentTable.isPending(offset)
          && decode(frames.read(offset), scopes).intentId().equals(intentId)) {
        return slot;
      }
    }
    throw new IllegalStateException("a pending intent is missing from the index");
  }

  /**
   * Adds a pending intent read from the log while it is opened: the payload of its begin record,
   * which starts with its type, scope number and intent id.
   */
  void loadPending(byte[] payload, int frame) {
    PayloadReader in = new PayloadReader().reset(payload, 0, payload.length);
    RecordScan.scan(in, new RecordScan()); // every field well-formed
    in.reset(payload, 0, payload.length).u8();
    int scopeId = in.varint(Integer.MAX_VALUE);
    scopes.get(scopeId);
    pending.put(new Id(scopeId, in.text()), new Pending(payload, 0, frame, order++));
  }

  /** Makes room for {@code count} pending intents; before any is added. */
  void reservePending(int count) {
    if (pending.isEmpty()) {
      pending = new HashMap<>(count * 4 / 3 + 16);
    }
  }

  /** The pending records, oldest first; equal creation times in log order. */
  List<IntentRecord> pending() {
    record Ranked(IntentRecord record, long order) {}
    List<Ranked> list = new ArrayList<>(pending.size());
    for (Pending p : pending.values()) {
      list.add(new Ranked(p.record(scopes), p.order));
    }
    list.sort(
        Comparator.comparing((Ranked r) -> r.record().createdAt())
            .thenComparingLong(Ranked::order));
    List<IntentRecord> records = new ArrayList<>(list.size());
    list.forEach(r -> records.add(r.record()));
    return records;
  }

  /** Forgets pending intents whose begin record was never made durable: a failed sync lost them. */
  void forgetAbove(long durableSeq) {
    List<Id> lost = new ArrayList<>();
    pending.forEach(
        (id, p) -> {
          if (p.beginSeq > durableSeq) {
            lost.add(id);
          }
        });
    for (Id id : lost) {
      Pending p = pending.remove(id);
      table.remove(pendingSlot(IntentHash.of(id.scopeId(), id.intentId()), id.intentId()));
      liveBytes -= p.frameLength;
    }
  }

  /** Whether a new candidate at {@code now} replaces {@code existing}: completed and expired. */
  static boolean replaceable(IntentRecord existing, Instant now) {
    return existing.state() != IntentState.PENDING && existing.isExpired(now);
  }
}
