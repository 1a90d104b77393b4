package dev.saferetry.internal.store;

/**
 * Replays the records of a log into an empty index as they are scanned: a begin makes its intent
 * pending, a completion holds the completed intent in full (and creates it if a compaction dropped
 * it meanwhile), an abandon removes it, a scope record numbers a scope, a seal notes which file the
 * log replaced. Only offsets are kept; pending records are decoded at the end, in log order. Not
 * thread-safe.
 */
final class IndexBuilder {
  private final IntentIndex index;
  private final LogReader reader;
  private final PayloadReader in = new PayloadReader();
  private final RecordScan scanned = new RecordScan();
  private byte[] id = new byte[256];
  private int sameFrame;
  private long sealEnd;
  private long sealedPrevious;

  IndexBuilder(IntentIndex index, LogReader reader) {
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
   * Applies the valid frame at {@code offset}, whose payload is {@code data[at, at + length)}.
   *
   * @throws IllegalArgumentException if the record is not valid
   */
  void apply(byte[] data, int at, int length, long offset) {
    RecordScan s = RecordScan.scanForIndex(in.reset(data, at, length), scanned);
    int frame = LogFormat.FRAME_HEADER_SIZE + length;
    switch (s.type) {
      case CompactCodec.SCOPE -> index.scopes().define(s.scopeId, s.scope);
      case CompactCodec.SEAL -> {
        sealEnd = offset + frame;
        sealedPrevious = s.previousGeneration;
      }
      default -> applyIntent(s, data, offset, frame);
    }
  }

  private void applyIntent(RecordScan s, byte[] data, long offset, int frame) {
    index.scopes().get(s.scopeId); // a record may only name a scope defined before it
    if (id.length < s.idLength) {
      id = new byte[s.idLength];
    }
    System.arraycopy(data, s.idStart, id, 0, s.idLength);
    long hash = IntentHash.of(s.scopeId, id, 0, s.idLength);
    IntentTable table = index.table();
    int slot = sameIntent(hash, s.scopeId, s.idLength);
    int previous = slot < 0 ? 0 : sameFrame;
    switch (s.type) {
      case CompactCodec.BEGIN -> put(table, slot, hash, offset | IntentTable.PENDING);
      case CompactCodec.COMPLETE -> put(table, slot, hash, offset);
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

  private static void put(IntentTable table, int slot, long hash, long offset) {
    if (slot >= 0) {
      table.set(slot, offset);
    } else {
      table.add(hash, offset);
    }
  }

  /** The slot of the intent whose id is in {@code id}, comparing stored ids; or -1. */
  private int sameIntent(long hash, int scopeId, int idLength) {
    IntentTable table = index.table();
    for (int slot = table.probe(hash, -1); slot >= 0; slot = table.probe(hash, slot)) {
      PayloadReader other = reader.readScanned(table.offset(slot));
      sameFrame = LogFormat.FRAME_HEADER_SIZE + other.remaining();
      other.u8();
      if (other.varint(Integer.MAX_VALUE) == scopeId) {
        int start = other.textStart();
        int length = other.position() - start;
        if (length == idLength && sameBytes(other, start, length)) {
          return slot;
        }
      }
    }
    return -1;
  }

  private boolean sameBytes(PayloadReader other, int start, int length) {
    for (int i = 0; i < length; i++) {
      if (other.byteAt(start + i) != id[i]) {
        return false;
      }
    }
    return true;
  }
}
