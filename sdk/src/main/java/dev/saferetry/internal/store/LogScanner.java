package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the records of an intent log up to the first one that is not valid; what follows that point
 * is judged by {@link LogTail}. A current log is scanned through a window straight into the index,
 * building no record object except for pending intents; an older log is decoded whole, to be
 * rewritten in the current format. Stateless.
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
   * What a scan of a current log found.
   *
   * @param validEnd the offset just after the last valid record (or after the header)
   * @param sealEnd the end of the seal of the compaction that wrote the file, or 0 if none
   * @param sealedPrevious the generation the seal says the file replaced
   */
  record Scan(long validEnd, long sealEnd, long sealedPrevious) {}

  /** The valid records of an older log, decoded, and the offset just after them. */
  record LegacyScan(List<LogEntry> entries, long validEnd) {}

  private LogScanner() {}

  /**
   * Reads the header of {@code file} from its first bytes.
   *
   * @throws KeyStoreException naming the file and offset, if it is not an intent log or has an
   *     unknown version
   */
  static Header header(Path file, byte[] data) {
    int versionOf = data.length >= LogFormat.HEADER_SIZE_V1 ? ByteBuffer.wrap(data).getInt(4) : 0;
    boolean withGeneration = versionOf == LogFormat.VERSION || versionOf == LogFormat.VERSION_2;
    if (data.length < LogFormat.HEADER_SIZE_V1
        || (withGeneration && data.length < LogFormat.HEADER_SIZE)) {
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
    if (!withGeneration) {
      throw corrupt(
          file,
          4,
          "unsupported format version "
              + versionOf
              + " (this SDK reads "
              + LogFormat.VERSION_1
              + " to "
              + LogFormat.VERSION
              + ")");
    }
    return new Header(versionOf, ByteBuffer.wrap(data).getLong(8));
  }

  private static boolean isPrefixOfAHeader(byte[] data) {
    for (int version : new int[] {LogFormat.VERSION, LogFormat.VERSION_2}) {
      byte[] header = LogFormat.header(version, 0).array();
      int fixed = Math.min(data.length, LogFormat.HEADER_SIZE_V1);
      if (Arrays.equals(data, 0, fixed, header, 0, fixed)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Scans a current-version log into {@code index}.
   *
   * @throws KeyStoreException naming the file and offset of a valid frame whose record is not
   */
  static Scan scan(Path file, FileChannel channel, long size, IntentIndex index)
      throws IOException {
    LogReader reader = new LogReader(file, channel, size, LogReader.WINDOW);
    IndexBuilder builder = new IndexBuilder(file, index, reader);
    long pos = LogFormat.HEADER_SIZE;
    while (true) {
      int at = load(reader, builder, pos, LogFormat.FRAME_HEADER_SIZE);
      int length = at < 0 ? 0 : ByteBuffer.wrap(reader.window(), at, 4).getInt();
      if (length <= 0 || length > LogFormat.MAX_PAYLOAD) {
        break;
      }
      at = load(reader, builder, pos, LogFormat.FRAME_HEADER_SIZE + length);
      if (at < 0 || LogFormat.validFrameLength(reader.window(), at, reader.window().length) < 0) {
        break;
      }
      builder.offer(reader.window(), at + LogFormat.FRAME_HEADER_SIZE, length, pos);
      pos += LogFormat.FRAME_HEADER_SIZE + length;
    }
    builder.flush();
    index.countPending();
    return new Scan(pos, builder.sealEnd(), builder.sealedPrevious());
  }

  /** Loads a range into the reader's window, first applying what the builder holds of it. */
  private static int load(LogReader reader, IndexBuilder builder, long offset, int length)
      throws IOException {
    if (!reader.contains(offset, length)) {
      builder.flush();
    }
    return reader.load(offset, length);
  }

  /**
   * Decodes the valid records of a version-1 or version-2 log.
   *
   * @throws KeyStoreException naming the file and offset of a valid frame whose record is not
   */
  static LegacyScan scanLegacy(Path file, byte[] data, Header header) {
    List<LogEntry> entries = new ArrayList<>();
    int offset = header.size();
    while (offset < data.length) {
      int length = LogFormat.validFrameLength(data, offset, data.length);
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
    return new LegacyScan(entries, offset);
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
