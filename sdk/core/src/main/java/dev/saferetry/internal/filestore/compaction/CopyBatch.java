package dev.saferetry.internal.filestore.compaction;

import dev.saferetry.internal.filestore.file.StoreFiles;
import dev.saferetry.internal.filestore.index.IntentHash;
import dev.saferetry.internal.filestore.index.IntentIndex;
import dev.saferetry.internal.filestore.index.OffsetTable;
import dev.saferetry.internal.filestore.log.FrameBuffer;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.PayloadReader;
import dev.saferetry.internal.filestore.record.RecordCodec;
import dev.saferetry.internal.filestore.record.RecordScan;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The records a compaction is about to copy, a few hundred at a time: they are parsed without the
 * store's lock, then one short hold of the lock decides which are still the latest of their intent
 * (the index points at exactly their old offset), notes their new places, and drops the expired
 * ones a purge removes. Copied records are buffered and written to the new file in large writes.
 * Not thread-safe.
 */
final class CopyBatch {
  private static final int MAX_RECORDS = 512;
  private static final int FLUSH_BYTES = 1024 * 1024;

  // Copy without looking at the index (scopes and abandons appended meanwhile).
  private static final int COPY = 0;

  // Copy if it is the latest; drop it if it is also completed and expired.
  private static final int IF_LATEST = 1;

  // Copy, and note its new place if it is the latest.
  private static final int COPY_AND_PLACE = 2;

  private final ReentrantLock stateLock;
  private final IntentIndex index;
  private final Instant purgeAt;
  private final PayloadReader in = new PayloadReader();
  private final RecordScan scanned = new RecordScan();
  private byte[] bytes = new byte[64 * 1024];
  private int length;
  private final int[] starts = new int[MAX_RECORDS];
  private final int[] frames = new int[MAX_RECORDS];
  private final long[] hashes = new long[MAX_RECORDS];
  private final long[] offsets = new long[MAX_RECORDS];
  private final int[] kinds = new int[MAX_RECORDS];
  private final boolean[] expired = new boolean[MAX_RECORDS];
  private int count;
  private final FrameBuffer output = new FrameBuffer();
  private FileChannel out;
  private long written;

  CopyBatch(ReentrantLock stateLock, IntentIndex index, Instant purgeAt) {
    this.stateLock = stateLock;
    this.index = index;
    this.purgeAt = purgeAt;
  }

  /** Starts the new file with {@code head} (header and scopes). */
  void startAt(FileChannel out, FrameBuffer head) {
    this.out = out;
    output.clear().putBytes(head.array(), 0, head.length());
  }

  /**
   * Takes the frame {@code data[at, at + frame)}, found at {@code offset} of the old log.
   *
   * @param all whether it was appended after the compaction started: then it is copied whatever it
   *     is, and placed if it is the latest
   */
  void offer(byte[] data, int at, int frame, long offset, boolean all) {
    RecordScan s =
        RecordScan.scan(
            in.reset(data, at + LogFormat.FRAME_HEADER_SIZE, frame - LogFormat.FRAME_HEADER_SIZE),
            scanned);
    int kind;
    if (s.type() == RecordCodec.SCOPE || s.type() == RecordCodec.SEAL) {
      if (!all || s.type() == RecordCodec.SEAL) {
        return; // the new file defines every scope first, and has its own seal
      }
      kind = COPY;
    } else if (s.type() == RecordCodec.ABANDON) {
      if (!all) {
        return; // what it removed is not in the index, so nothing of it is copied
      }
      kind = COPY;
    } else {
      kind = all ? COPY_AND_PLACE : IF_LATEST;
      hashes[count] = IntentHash.of(s.scopeId(), data, s.idStart(), s.idLength());
      offsets[count] = s.type() == RecordCodec.BEGIN ? offset | OffsetTable.PENDING : offset;
      expired[count] = !all && purgeAt != null && s.completedAndExpired(purgeAt);
    }
    if (length + frame > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + frame));
    }
    System.arraycopy(data, at, bytes, length, frame);
    starts[count] = length;
    frames[count] = frame;
    kinds[count] = kind;
    length += frame;
    count++;
  }

  boolean full() {
    return count == MAX_RECORDS || length >= FLUSH_BYTES;
  }

  /** Decides the records taken so far under one hold of the lock; returns how many it dropped. */
  int decide() throws IOException {
    int dropped = 0;
    stateLock.lock();
    try {
      OffsetTable table = index.table();
      for (int i = 0; i < count; i++) {
        int slot = kinds[i] == COPY ? -1 : table.slotOf(hashes[i], offsets[i]);
        if (kinds[i] == IF_LATEST && slot >= 0 && expired[i]) {
          table.remove(slot);
          index.addLiveBytes(-frames[i]);
          dropped++;
        } else if (kinds[i] != IF_LATEST || slot >= 0) {
          if (slot >= 0) {
            table.place(slot, end());
          }
          output.putBytes(bytes, starts[i], frames[i]);
        }
      }
    } finally {
      stateLock.unlock();
    }
    count = 0;
    length = 0;
    if (output.length() >= FLUSH_BYTES) {
      flush();
    }
    return dropped;
  }

  /** Ends the new file with a seal naming the generation it replaces. */
  void seal(long previousGeneration) {
    RecordCodec.seal(output, previousGeneration, index.floor());
  }

  /** Writes what is buffered to the new file. */
  void flush() throws IOException {
    StoreFiles.writeFully(out, output.view(), written);
    written += output.length();
    output.clear();
  }

  /** The size of the new file so far, buffered bytes included. */
  long end() {
    return written + output.length();
  }
}
