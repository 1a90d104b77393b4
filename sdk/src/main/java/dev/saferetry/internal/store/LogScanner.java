package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a whole intent log and tells apart the three endings a file can have: clean, a torn final
 * write (safe to cut off), and damage (must be reported). Stateless.
 */
final class LogScanner {

  /**
   * The readable part of a log.
   *
   * @param entries the valid records, in file order
   * @param validEnd the offset just after the last valid record (or after the header)
   * @param headerPresent whether the file starts with a complete, valid header
   */
  record Scan(List<LogEntry> entries, long validEnd, boolean headerPresent) {}

  private LogScanner() {}

  /**
   * Scans the bytes of {@code file}.
   *
   * @throws KeyStoreException naming the file and offset, if the file is not an intent log, has an
   *     unknown version, or is damaged anywhere but in its final record
   */
  static Scan scan(Path file, byte[] data) {
    if (data.length < LogFormat.HEADER_SIZE) {
      byte[] header = LogFormat.header().array();
      if (Arrays.equals(data, 0, data.length, header, 0, data.length)) {
        return new Scan(List.of(), 0, false); // empty, or a header torn by a crash at creation
      }
      throw corrupt(file, 0, "not a SafeRetry key store file (bad header)");
    }
    if (!Arrays.equals(data, 0, 4, LogFormat.MAGIC, 0, 4)) {
      throw corrupt(file, 0, "not a SafeRetry key store file (bad magic)");
    }
    int version = ByteBuffer.wrap(data, 4, 4).getInt();
    if (version != LogFormat.VERSION) {
      throw corrupt(
          file,
          4,
          "unsupported format version " + version + " (this SDK reads " + LogFormat.VERSION + ")");
    }
    List<LogEntry> entries = new ArrayList<>();
    int offset = LogFormat.HEADER_SIZE;
    while (offset < data.length) {
      int length = validFrameLength(data, offset);
      if (length < 0) {
        if (validFrameAfter(data, offset + 1)) {
          throw corrupt(file, offset, "damaged record followed by valid records");
        }
        break; // torn tail: the caller cuts it off
      }
      int payload = offset + LogFormat.FRAME_HEADER_SIZE;
      try {
        entries.add(RecordCodec.decode(ByteBuffer.wrap(data, payload, length).slice()));
      } catch (IllegalArgumentException | BufferUnderflowException | IndexOutOfBoundsException e) {
        throw corrupt(file, offset, "undecodable record (" + e.getMessage() + ")");
      }
      offset = payload + length;
    }
    return new Scan(entries, offset, true);
  }

  /** Returns the payload length of a complete frame with a correct checksum at offset, or -1. */
  private static int validFrameLength(byte[] data, int offset) {
    if (data.length - offset < LogFormat.FRAME_HEADER_SIZE) {
      return -1;
    }
    ByteBuffer header = ByteBuffer.wrap(data, offset, LogFormat.FRAME_HEADER_SIZE);
    int length = header.getInt();
    int crc = header.getInt();
    int payload = offset + LogFormat.FRAME_HEADER_SIZE;
    if (length <= 0 || length > LogFormat.MAX_PAYLOAD || length > data.length - payload) {
      return -1;
    }
    return LogFormat.crc(length, data, payload) == crc ? length : -1;
  }

  /**
   * Whether any valid frame starts at or after {@code from}. A torn write leaves nothing valid
   * behind it; damage in the middle of a file (even to a length field) leaves the frames after it
   * intact, so finding one proves the bad frame was not the last write.
   */
  private static boolean validFrameAfter(byte[] data, int from) {
    for (int offset = from; offset <= data.length - LogFormat.FRAME_HEADER_SIZE; offset++) {
      if (validFrameLength(data, offset) >= 0) {
        return true;
      }
    }
    return false;
  }

  static KeyStoreException corrupt(Path file, long offset, String what) {
    return new KeyStoreException(
        "key store file "
            + file
            + " is unreadable at offset "
            + offset
            + ": "
            + what
            + "; nothing was changed. Move the file aside or restore it, then reopen.");
  }
}
