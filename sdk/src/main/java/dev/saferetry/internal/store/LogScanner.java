package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads the records of an intent log up to the first one that is not valid; what follows that point
 * is judged by {@link LogTail}. The log is scanned through a window straight into the index,
 * building no intent record. Stateless.
 */
final class LogScanner {

  /**
   * The header of a log.
   *
   * @param complete false if the file is shorter than a header: torn while it was created
   * @param generation the log's generation (0 if the header is not complete)
   */
  record Header(boolean complete, long generation) {}

  /**
   * What a scan of a log found.
   *
   * @param validEnd the offset just after the last valid record (or after the header)
   * @param sealEnd the end of the seal of the compaction that wrote the file, or 0 if none
   * @param sealedPrevious the generation the seal says the file replaced
   */
  record Scan(long validEnd, long sealEnd, long sealedPrevious) {}

  private LogScanner() {}

  /**
   * Reads the header of {@code file} from its first bytes.
   *
   * @throws KeyStoreException naming the file and offset, if it is not an intent log or is of
   *     another format version than {@link LogFormat#VERSION}
   */
  static Header header(Path file, byte[] data) {
    byte[] current = LogFormat.header(0).array(); // magic and version; the generation varies
    int fixed = Math.min(data.length, 8);
    if (data.length < LogFormat.HEADER_SIZE && Arrays.equals(data, 0, fixed, current, 0, fixed)) {
      return new Header(false, 0); // created, but the crash came before its header was complete
    }
    if (data.length < 8) {
      throw corrupt(file, 0, "not a SafeRetry key store file (bad header)");
    }
    if (!Arrays.equals(data, 0, 4, LogFormat.MAGIC, 0, 4)) {
      throw corrupt(file, 0, "not a SafeRetry key store file (bad magic)");
    }
    int version = ByteBuffer.wrap(data).getInt(4);
    if (version != LogFormat.VERSION) {
      throw corrupt(
          file,
          4,
          "unsupported format version "
              + Integer.toUnsignedString(version)
              + " (this SDK reads format version "
              + LogFormat.VERSION
              + " only)");
    }
    return new Header(true, ByteBuffer.wrap(data).getLong(8));
  }

  /**
   * Scans a log into {@code index}.
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
