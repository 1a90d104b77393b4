package dev.saferetry.internal.filestore.index;

import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.LogReader;
import dev.saferetry.internal.filestore.log.LogTail;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads the records of an intent log up to the first one that is not valid; what follows that point
 * is judged by {@link LogTail}. The log is scanned through a window straight into the index,
 * building no intent record. Stateless.
 */
public final class LogScanner {

  /**
   * What a scan of a log found.
   *
   * @param validEnd the offset just after the last valid record (or after the header)
   * @param sealEnd the end of the seal of the compaction that wrote the file, or 0 if none
   * @param sealedPrevious the generation the seal says the file replaced
   */
  public record Scan(long validEnd, long sealEnd, long sealedPrevious) {}

  private LogScanner() {}

  /**
   * Scans a log into {@code index}.
   *
   * @throws KeyStoreException naming the file and offset of a valid frame whose record is not
   */
  public static Scan scan(Path file, FileChannel channel, long size, IntentIndex index)
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

  // Loads a range into the reader's window, first applying what the builder holds of it.
  private static int load(LogReader reader, IndexBuilder builder, long offset, int length)
      throws IOException {
    if (!reader.contains(offset, length)) {
      builder.flush();
    }
    return reader.load(offset, length);
  }
}
