package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a whole intent log and tells apart the endings a file can have: clean; a torn final write,
 * which is safe to cut off; and damage, which must be reported. Only an incomplete final frame —
 * shorter than the length it declares, or than a frame header — can be a torn write: a crash stops
 * a write part-way, it does not flip bits in a complete frame, and it tears at most the one frame
 * being written. Stateless.
 */
final class LogScanner {

  /**
   * The header of a log.
   *
   * @param version the format version, or 0 if the file is shorter than a header (torn while the
   *     file was created)
   * @param generation the log's generation (0 for version 1, which has none)
   */
  record Header(int version, long generation) {
    int size() {
      return version == LogFormat.VERSION_1 ? LogFormat.HEADER_SIZE_V1 : LogFormat.HEADER_SIZE;
    }
  }

  /**
   * The readable part of a log.
   *
   * @param entries the valid records, in file order
   * @param validEnd the offset just after the last valid record (or after the header)
   * @param torn whether an incomplete final frame follows {@code validEnd}
   */
  record Scan(List<LogEntry> entries, long validEnd, boolean torn) {}

  private LogScanner() {}

  /**
   * Reads the header of {@code file}.
   *
   * @throws KeyStoreException naming the file and offset, if it is not an intent log or has an
   *     unknown version
   */
  static Header header(Path file, byte[] data) {
    int versionOf = data.length >= LogFormat.HEADER_SIZE_V1 ? ByteBuffer.wrap(data).getInt(4) : 0;
    if (data.length < LogFormat.HEADER_SIZE_V1
        || (versionOf == LogFormat.VERSION && data.length < LogFormat.HEADER_SIZE)) {
      if (isPrefixOfAHeader(data)) {
        return new Header(0, 0); // created, but the crash came before its header was complete
      }
      throw corrupt(file, 0, "not a SafeRetry key store file (bad header)");
    }
    if (!Arrays.equals(data, 0, 4, LogFormat.MAGIC, 0, 4)) {
      throw corrupt(file, 0, "not a SafeRetry key store file (bad magic)");
    }
    if (versionOf == LogFormat.VERSION_1) {
      return new Header(versionOf, 0);
    }
    if (versionOf != LogFormat.VERSION) {
      throw corrupt(
          file,
          4,
          "unsupported format version "
              + versionOf
              + " (this SDK reads "
              + LogFormat.VERSION_1
              + " and "
              + LogFormat.VERSION
              + ")");
    }
    return new Header(versionOf, ByteBuffer.wrap(data).getLong(8));
  }

  private static boolean isPrefixOfAHeader(byte[] data) {
    byte[] current = LogFormat.header(0).array();
    int fixed = Math.min(data.length, LogFormat.HEADER_SIZE_V1);
    return Arrays.equals(data, 0, fixed, current, 0, fixed);
  }

  /**
   * Scans the records of {@code file} after its header.
   *
   * @throws KeyStoreException naming the file and offset, if a record is damaged or undecodable, or
   *     the file ends in anything but an incomplete final frame
   */
  static Scan scan(Path file, byte[] data, Header header) {
    List<LogEntry> entries = new ArrayList<>();
    int offset = header.size();
    while (offset < data.length) {
      int length = validFrameLength(data, offset);
      if (length < 0) {
        break;
      }
      int payload = offset + LogFormat.FRAME_HEADER_SIZE;
      try {
        ByteBuffer bytes = ByteBuffer.wrap(data, payload, length).slice();
        entries.add(RecordCodec.decode(bytes, header.version()));
      } catch (IllegalArgumentException | BufferUnderflowException | IndexOutOfBoundsException e) {
        throw corrupt(file, offset, "undecodable record (" + e.getMessage() + ")");
      }
      offset = payload + length;
    }
    if (offset == data.length) {
      return new Scan(entries, offset, false);
    }
    checkTorn(file, data, offset);
    return new Scan(entries, offset, true);
  }

  /** Throws unless the bytes from {@code offset} to the end are one incomplete frame. */
  private static void checkTorn(Path file, byte[] data, int offset) {
    int tail = data.length - offset;
    if (tail > LogFormat.MAX_FRAME) {
      throw corrupt(
          file,
          offset,
          tail
              + " bytes that are not records follow the last valid record, more than a crash"
              + " can leave behind");
    }
    if (tail >= LogFormat.FRAME_HEADER_SIZE) {
      int length = ByteBuffer.wrap(data, offset, 4).getInt();
      if (length <= 0 || length > LogFormat.MAX_PAYLOAD) {
        throw corrupt(file, offset, "invalid record length " + length);
      }
      if (LogFormat.FRAME_HEADER_SIZE + length <= tail) {
        throw corrupt(file, offset, "a complete record fails its checksum");
      }
    }
    if (validFrameAfter(data, offset + 1)) {
      throw corrupt(file, offset, "damaged record followed by valid records");
    }
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
   * behind it; a damaged length field in the middle of a file makes a frame look incomplete, but
   * leaves the frames after it intact, so finding one proves the bad frame was not the last write.
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
