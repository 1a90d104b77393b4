package dev.saferetry.internal.filestore.index;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.log.FrameReader;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.PayloadReader;
import dev.saferetry.internal.filestore.record.RecordCodec;
import dev.saferetry.internal.filestore.record.Scopes;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's view of the log: where every live intent's latest record is, in {@link OffsetTable}.
 * An intent is read back from the log when it is asked for (a re-drive, a duplicate, a {@code
 * find}), which keeps it at a few dozen bytes of heap; only the intents begun by this process and
 * still pending are also kept in full, with the sequence number of their begin, which a caller of
 * the same intent waits for before it may use the key.
 *
 * <p>Not thread-safe: the store's lock guards it.
 */
public final class IntentIndex {
  private record Id(int scopeId, String intentId) {}

  /** An intent begun by this process and still pending: its record, begin and frame length. */
  public record Begun(IntentRecord record, long beginSeq, int frameLength) {}

  /**
   * A live intent as found: its record; {@link Begun} if this process began it and it is pending;
   * otherwise the offset (with its flag) of the record it was read from.
   */
  public record Found(
      long hash, int scopeId, IntentRecord record, Begun begun, long offset, int frame) {
    boolean isPending() {
      return record.state() == IntentState.PENDING;
    }

    /** The sequence number of the begin to wait for before the key may be used; 0 if none. */
    public long beginSeq() {
      return begun == null ? 0 : begun.beginSeq();
    }
  }

  private final Scopes scopes = new Scopes();
  private final OffsetTable table;
  private final Map<Id, Begun> begun = new HashMap<>();
  private FrameReader frames;
  private long liveBytes;
  private int pendingCount;
  private boolean hasFloor;
  private long floorSecond;
  private int floorNano;

  /** An empty index with room for about {@code expected} intents before its table grows. */
  public IntentIndex(int expected) {
    table = new OffsetTable(expected);
  }

  /** An empty index of the default size, for a new log. */
  public IntentIndex() {
    this(16);
  }

  /**
   * Reads intents back through {@code frames} from now on: the log being opened, or the log in use.
   */
  public void readFrom(FrameReader frames) {
    this.frames = frames;
  }

  /** The scopes the log has numbered. */
  public Scopes scopes() {
    return scopes;
  }

  /** Where each live intent's latest record is; a compaction notes their new places in it. */
  public OffsetTable table() {
    return table;
  }

  /** How many live intents the index holds. */
  public int size() {
    return table.size();
  }

  /** How many of them are pending. */
  public int pendingCount() {
    return pendingCount;
  }

  /** The bytes of the log's latest records: what a compaction keeps. */
  public long liveBytes() {
    return liveBytes;
  }

  /** Adds {@code delta} to the bytes a compaction keeps (negative when it drops a record). */
  public void addLiveBytes(long delta) {
    liveBytes += delta;
  }

  /**
   * Raises the time floor: the latest creation time of any record the log has held (kept through
   * compactions by their seals), below which no expiry is judged.
   */
  void raiseFloor(long second, int nano) {
    if (!hasFloor || second > floorSecond || (second == floorSecond && nano > floorNano)) {
      hasFloor = true;
      floorSecond = second;
      floorNano = nano;
    }
  }

  /** Raises the time floor to {@code time} if it is later. */
  public void raiseFloor(Instant time) {
    raiseFloor(time.getEpochSecond(), time.getNano());
  }

  /** The time floor, or null if the log never held a record. */
  public Instant floor() {
    return hasFloor ? Instant.ofEpochSecond(floorSecond, floorNano) : null;
  }

  /** The later of {@code time} and the floor: the time at which expiry is judged. */
  public Instant atFloor(Instant time) {
    Instant floor = floor();
    return floor != null && floor.isAfter(time) ? floor : time;
  }

  /** Counts the pending intents of a log just read; their records stay in the log. */
  void countPending() {
    pendingCount = 0;
    for (int slot = 0; slot < table.capacity(); slot++) {
      if (table.hashAt(slot) != 0 && OffsetTable.isPending(table.offset(slot))) {
        pendingCount++;
      }
    }
  }

  /** The live intent {@code intentId} of {@code scope}, or null. */
  public Found find(IntentScope scope, String intentId) {
    int scopeId = scopes.idOf(scope);
    if (scopeId < 0) {
      return null;
    }
    long hash = IntentHash.of(scopeId, intentId);
    Begun b = begun.get(new Id(scopeId, intentId));
    if (b != null) {
      return new Found(hash, scopeId, b.record(), b, -1, b.frameLength());
    }
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      long offset = table.offset(slot);
      PayloadReader in = frames.read(OffsetTable.position(offset));
      int frame = LogFormat.FRAME_HEADER_SIZE + in.remaining();
      IntentRecord record = decode(in, scopes);
      if (record.intentId().equals(intentId) && record.scope().equals(scope)) {
        return new Found(hash, scopeId, record, null, offset, frame);
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
      return RecordCodec.decode(in, scopes);
    } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
      throw new KeyStoreException(
          "a record of the key store's log cannot be read ("
              + e.getMessage()
              + "); nothing was changed. Move the store's files aside or restore them, then"
              + " reopen.");
    }
  }

  /** Records a new pending intent, replacing {@code replaced} (a completed one) if not null. */
  public void addPending(
      Found replaced, int scopeId, IntentRecord record, long offset, int frame, long seq) {
    if (replaced != null) {
      remove(replaced);
    }
    table.add(IntentHash.of(scopeId, record.intentId()), offset | OffsetTable.PENDING);
    begun.put(new Id(scopeId, record.intentId()), new Begun(record, seq, frame));
    liveBytes += frame;
    pendingCount++;
  }

  /** Points a live intent at its completion record, which holds it in full. */
  public void complete(Found existing, long offset, int frame) {
    table.set(slotOf(existing), offset);
    forget(existing);
    liveBytes += frame - existing.frame();
  }

  /** Forgets a live intent. */
  public void remove(Found existing) {
    table.remove(slotOf(existing));
    forget(existing);
    liveBytes -= existing.frame();
  }

  private void forget(Found existing) {
    if (existing.begun() != null) {
      begun.remove(new Id(existing.scopeId(), existing.record().intentId()));
    }
    if (existing.isPending()) {
      pendingCount--;
    }
  }

  private int slotOf(Found found) {
    if (found.begun() == null) {
      return table.slotOf(found.hash(), found.offset());
    }
    return begunSlot(found.hash(), found.record().intentId());
  }

  // The slot of an intent this process began, which is pending and in the table.
  private int begunSlot(long hash, String intentId) {
    int only = -1;
    int candidates = 0;
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      if (OffsetTable.isPending(table.offset(slot))) {
        only = slot;
        candidates++;
      }
    }
    if (candidates == 1) {
      return only; // the intent is pending, so it has a slot, and this is the only one it can be
    }
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      long offset = table.offset(slot);
      if (OffsetTable.isPending(offset)
          && decode(frames.read(OffsetTable.position(offset)), scopes)
              .intentId()
              .equals(intentId)) {
        return slot;
      }
    }
    throw new IllegalStateException("a pending intent is missing from the index");
  }

  /**
   * The pending records, oldest first; equal creation times in log order. Read back from the log
   * (begun by this process, from memory), in log order.
   */
  public List<IntentRecord> pending() {
    long[] offsets = new long[pendingCount];
    int count = 0;
    for (int slot = 0; slot < table.capacity() && count < offsets.length; slot++) {
      if (table.hashAt(slot) != 0 && OffsetTable.isPending(table.offset(slot))) {
        offsets[count++] = table.offset(slot);
      }
    }
    Arrays.sort(offsets, 0, count); // log order: the flag is the same on all of them
    List<IntentRecord> records = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      records.add(decode(frames.read(OffsetTable.position(offsets[i])), scopes));
    }
    records.sort(Comparator.comparing(IntentRecord::createdAt)); // stable: ties stay in log order
    return records;
  }

  /** Forgets pending intents whose begin record was never made durable: a failed sync lost them. */
  public void forgetAbove(long durableSeq) {
    List<Id> lost = new ArrayList<>();
    begun.forEach(
        (id, b) -> {
          if (b.beginSeq() > durableSeq) {
            lost.add(id);
          }
        });
    for (Id id : lost) {
      Begun b = begun.remove(id);
      table.remove(begunSlot(IntentHash.of(id.scopeId(), id.intentId()), id.intentId()));
      liveBytes -= b.frameLength();
      pendingCount--;
    }
  }

  /** Whether a new candidate at {@code now} replaces {@code existing}: completed and expired. */
  public static boolean replaceable(IntentRecord existing, Instant now) {
    return existing.state() != IntentState.PENDING && existing.isExpired(now);
  }
}
