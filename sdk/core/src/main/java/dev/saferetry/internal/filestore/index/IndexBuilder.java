package dev.saferetry.internal.filestore.index;

import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.LogReader;
import dev.saferetry.internal.filestore.log.PayloadReader;
import dev.saferetry.internal.filestore.record.RecordCodec;
import dev.saferetry.internal.filestore.record.RecordScan;
import java.nio.file.Path;

/**
 * Replays the records of a log into an empty index as they are scanned: a begin makes its intent
 * pending, a completion holds the completed intent in full (and creates it if a compaction dropped
 * it meanwhile), an abandon removes it, a scope record numbers a scope, a seal notes which file the
 * log replaced. Only offsets are kept.
 *
 * <p>Records are taken in groups: their hashes are computed and their slots in the table touched
 * first, so that the memory reads of a group overlap instead of waiting one after the other, then
 * they are applied in order. Not thread-safe.
 */
final class IndexBuilder {
  private static final int GROUP = 32;

  private final Path file;
  private final IntentIndex index;
  private final LogReader reader;
  private final PayloadReader in = new PayloadReader();
  private final RecordScan scanned = new RecordScan();
  private final int[] starts = new int[GROUP];
  private final int[] lengths = new int[GROUP];
  private final long[] offsets = new long[GROUP];
  private final long[] hashes = new long[GROUP];
  private final int[] types = new int[GROUP];
  private final int[] scopeIds = new int[GROUP];
  private final int[] idStarts = new int[GROUP];
  private final int[] idLengths = new int[GROUP];
  private byte[] data;
  private int count;
  private int sameFrame;
  private long sealEnd;
  private long sealedPrevious;

  IndexBuilder(Path file, IntentIndex index, LogReader reader) {
    this.file = file;
    this.index = index;
    this.reader = reader;
    index.readFrom(reader);
  }

  long sealEnd() {
    return sealEnd;
  }

  long sealedPrevious() {
    return sealedPrevious;
  }

  /**
   * Takes the valid frame at {@code offset}, whose payload is {@code window[at, at + length)}; the
   * window must stay as it is until {@link #flush}, which this calls when the group is full.
   *
   * @throws dev.saferetry.idempotency.KeyStoreException naming the file and offset of a record that
   *     is not valid
   */
  void offer(byte[] window, int at, int length, long offset) {
    data = window;
    starts[count] = at;
    lengths[count] = length;
    offsets[count] = offset;
    count++;
    if (count == GROUP) {
      flush();
    }
  }

  /** Applies the frames taken so far, in order. */
  void flush() {
    OffsetTable table = index.table();
    for (int i = 0; i < count; i++) {
      try {
        RecordScan s = RecordScan.scanForIndex(in.reset(data, starts[i], lengths[i]), scanned);
        types[i] = s.type();
        scopeIds[i] = s.scopeId();
        idStarts[i] = s.idStart();
        idLengths[i] = s.idLength();
        if (s.hasTime()) {
          index.raiseFloor(s.timeSecond(), s.timeNano());
        }
        if (s.type() != RecordCodec.SCOPE && s.type() != RecordCodec.SEAL) {
          hashes[i] = IntentHash.of(s.scopeId(), data, s.idStart(), s.idLength());
          table.touch(hashes[i]);
        }
      } catch (IllegalArgumentException e) {
        throw undecodable(offsets[i], e);
      }
    }
    for (int i = 0; i < count; i++) {
      try {
        apply(i);
      } catch (IllegalArgumentException e) {
        throw undecodable(offsets[i], e);
      }
    }
    count = 0;
  }

  private RuntimeException undecodable(long offset, IllegalArgumentException e) {
    return LogFormat.corrupt(file, offset, "undecodable record (" + e.getMessage() + ")");
  }

  private void apply(int i) {
    int frame = LogFormat.FRAME_HEADER_SIZE + lengths[i];
    switch (types[i]) {
      case RecordCodec.SCOPE -> {
        RecordScan s = RecordScan.scanForIndex(in.reset(data, starts[i], lengths[i]), scanned);
        index.scopes().define(s.scopeId(), s.scope());
      }
      case RecordCodec.SEAL -> {
        RecordScan s = RecordScan.scanForIndex(in.reset(data, starts[i], lengths[i]), scanned);
        sealEnd = offsets[i] + frame;
        sealedPrevious = s.previousGeneration();
      }
      default -> applyIntent(i, frame);
    }
  }

  private void applyIntent(int i, int frame) {
    index.scopes().get(scopeIds[i]); // a record may only name a scope defined before it
    OffsetTable table = index.table();
    long hash = hashes[i];
    long offset = offsets[i];
    int slot = sameIntent(hash, scopeIds[i], idStarts[i], idLengths[i]);
    int previous = slot < 0 ? 0 : sameFrame;
    switch (types[i]) {
      case RecordCodec.BEGIN -> put(table, slot, hash, offset | OffsetTable.PENDING);
      case RecordCodec.COMPLETE -> put(table, slot, hash, offset);
      default -> {
        if (slot >= 0) {
          table.remove(slot);
        }
        index.addLiveBytes(-previous);
        return;
      }
    }
    index.addLiveBytes(frame - previous);
  }

  private static void put(OffsetTable table, int slot, long hash, long offset) {
    if (slot >= 0) {
      table.set(slot, offset);
    } else {
      table.add(hash, offset);
    }
  }

  // The slot of the intent whose id is data[idStart, idStart + idLength), or -1.
  private int sameIntent(long hash, int scopeId, int idStart, int idLength) {
    OffsetTable table = index.table();
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      PayloadReader other = reader.readScanned(OffsetTable.position(table.offset(slot)));
      sameFrame = LogFormat.FRAME_HEADER_SIZE + other.remaining();
      other.u8();
      if (other.varint(Integer.MAX_VALUE) == scopeId) {
        int start = other.textStart();
        int length = other.position() - start;
        if (length == idLength && sameBytes(other, start, idStart, length)) {
          return slot;
        }
      }
    }
    return -1;
  }

  private boolean sameBytes(PayloadReader other, int start, int idStart, int length) {
    for (int i = 0; i < length; i++) {
      if (other.byteAt(start + i) != data[idStart + i]) {
        return false;
      }
    }
    return true;
  }
}
