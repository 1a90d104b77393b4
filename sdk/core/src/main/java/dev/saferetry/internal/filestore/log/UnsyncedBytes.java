package dev.saferetry.internal.filestore.log;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A copy of the bytes appended to the log since its last good sync, from {@link #start()} on. After
 * a failed sync they may be neither on disk nor readable from the file, so the rewrite that follows
 * reads them from here; until then, records are read from here too, which spares a read of the file
 * for what was just written. Not thread-safe: the log's lock guards it.
 */
final class UnsyncedBytes {
  private byte[] bytes = new byte[4096];
  private int length;
  private long start;

  UnsyncedBytes(long start) {
    this.start = start;
  }

  /** The file offset of the first byte kept: the end of what was synced. */
  long start() {
    return start;
  }

  int length() {
    return length;
  }

  /** Keeps {@code data[0, count)}, just appended. */
  void append(byte[] data, int count) {
    if (length + count > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + count));
    }
    System.arraycopy(data, 0, bytes, length, count);
    length += count;
  }

  /** Drops the bytes before {@code end}, now synced. */
  void syncedTo(long end) {
    if (end <= start) {
      return;
    }
    int drop = (int) (end - start);
    System.arraycopy(bytes, drop, bytes, 0, length - drop);
    length -= drop;
    start = end;
    if (bytes.length > 64 * 1024 && length < bytes.length / 4) {
      bytes = Arrays.copyOf(bytes, Math.max(4096, length * 2));
    }
  }

  /** Forgets everything: the log now starts over, synced, at {@code end}. */
  void reset(long end) {
    length = 0;
    start = end;
  }

  /**
   * Copies the frame at file offset {@code position} (at or after {@link #start()}) into {@code
   * into}, or a larger array it returns; a frame not wholly here reads as length 0.
   */
  byte[] frame(long position, byte[] into) {
    int at = (int) (position - start);
    int payload = at + 4 <= length ? ByteBuffer.wrap(bytes, at, 4).getInt() : -1;
    if (payload <= 0 || at + LogFormat.FRAME_HEADER_SIZE + (long) payload > length) {
      into[0] = into[1] = into[2] = into[3] = 0;
      return into;
    }
    int frame = LogFormat.FRAME_HEADER_SIZE + payload;
    byte[] out = into.length >= frame ? into : new byte[frame];
    System.arraycopy(bytes, at, out, 0, frame);
    return out;
  }

  /** Copies {@code [from, to)}, all at or after {@link #start()}, to {@code into[offset, ...)}. */
  void copy(long from, long to, byte[] into, int offset) {
    System.arraycopy(bytes, (int) (from - start), into, offset, (int) (to - from));
  }
}
