package dev.saferetry.internal.filestore.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Tells apart what can follow the last valid record of a log: nothing; zeros in space the store
 * preallocated (never written yet); a write torn by a crash, safe to cut off; or damage, which must
 * be reported.
 *
 * <p>Only an incomplete final frame — shorter than the length it declares, or than a frame header —
 * can be a torn write: a crash stops a write part-way, it does not flip bits in a complete frame,
 * and it tears at most the one frame being written. In preallocated space a torn frame does not end
 * the file, it ends where its unwritten sectors start: zeros from a sector boundary up to the end
 * of the preallocated space are read as "not written", so a frame cut there is still seen as
 * incomplete, while a complete frame with a bad checksum stays damage. Zeros beyond the space the
 * high-water mark says was preallocated are never "not written": they are damage. Stateless.
 */
public final class LogTail {
  private static final int CHUNK = 64 * 1024;

  private LogTail() {}

  /**
   * Checks the bytes of {@code file} from {@code validEnd} to {@code size}.
   *
   * @param allocated the end of the space the store preallocated, as its mark vouches; 0 if none
   * @return {@code validEnd} if nothing but unwritten space follows it, else the end of a torn
   *     frame to cut off
   * @throws dev.saferetry.idempotency.KeyStoreException naming the file and offset, if the bytes
   *     after the last valid record are damage
   */
  public static long check(Path file, FileChannel channel, long validEnd, long size, long allocated)
      throws IOException {
    if (validEnd >= size) {
      return validEnd;
    }
    boolean inAllocation = size <= allocated;
    long end = size;
    if (inAllocation) {
      long lastNonZero = lastNonZero(channel, validEnd, size);
      if (lastNonZero < 0) {
        return validEnd;
      }
      end = Math.min(size, roundUp(lastNonZero + 1));
    }
    long tail = end - validEnd;
    if (tail > LogFormat.MAX_FRAME) {
      throw LogFormat.corrupt(
          file,
          validEnd,
          tail
              + " bytes that are not records follow the last valid record, more than a crash"
              + " can leave behind");
    }
    byte[] bytes = new byte[(int) tail];
    read(channel, bytes, validEnd);
    checkTorn(file, bytes, validEnd);
    return end;
  }

  // Throws unless bytes, found at offset, are one incomplete frame.
  private static void checkTorn(Path file, byte[] bytes, long offset) {
    if (bytes.length >= LogFormat.FRAME_HEADER_SIZE) {
      int length = ByteBuffer.wrap(bytes, 0, 4).getInt();
      if (length <= 0 || length > LogFormat.MAX_PAYLOAD) {
        throw LogFormat.corrupt(file, offset, "invalid record length " + length);
      }
      if (LogFormat.FRAME_HEADER_SIZE + length <= bytes.length) {
        throw LogFormat.corrupt(file, offset, "a complete record fails its checksum");
      }
    }
    if (validFrameAfter(bytes, 1)) {
      throw LogFormat.corrupt(file, offset, "damaged record followed by valid records");
    }
  }

  // Whether any valid frame starts at or after from. A torn write leaves nothing valid behind it; a
  // damaged length field in the middle of a file makes a frame look incomplete, but leaves the
  // frames after it intact, so finding one proves the bad frame was not the last write.
  private static boolean validFrameAfter(byte[] data, int from) {
    for (int offset = from; offset <= data.length - LogFormat.FRAME_HEADER_SIZE; offset++) {
      if (LogFormat.validFrameLength(data, offset, data.length) >= 0) {
        return true;
      }
    }
    return false;
  }

  // The offset of the last byte in [from, to) that is not zero, or -1.
  private static long lastNonZero(FileChannel channel, long from, long to) throws IOException {
    byte[] chunk = new byte[CHUNK];
    long end = to;
    while (end > from) {
      int length = (int) Math.min(CHUNK, end - from);
      long start = end - length;
      read(channel, chunk, start, length);
      for (int i = length - 1; i >= 0; i--) {
        if (chunk[i] != 0) {
          return start + i;
        }
      }
      end = start;
    }
    return -1;
  }

  private static long roundUp(long offset) {
    return (offset + LogFormat.SECTOR - 1) / LogFormat.SECTOR * LogFormat.SECTOR;
  }

  private static void read(FileChannel channel, byte[] into, long offset) throws IOException {
    read(channel, into, offset, into.length);
  }

  private static void read(FileChannel channel, byte[] into, long offset, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(into, 0, length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, offset + buffer.position()) < 0) {
        throw new IOException("the file ended while it was read");
      }
    }
  }
}
