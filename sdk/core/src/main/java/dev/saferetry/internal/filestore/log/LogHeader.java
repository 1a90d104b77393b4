package dev.saferetry.internal.filestore.log;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The header of a log: magic, format version and generation (see the package documentation).
 * Immutable.
 *
 * @param complete false if the file is shorter than a header: torn while it was created
 * @param generation the log's generation (0 if the header is not complete)
 */
public record LogHeader(boolean complete, long generation) {

  /**
   * Reads the header of the log {@code file} open on {@code channel}.
   *
   * @throws KeyStoreException naming the file and offset, if it is not an intent log or is of
   *     another format version than {@link LogFormat#VERSION}
   */
  public static LogHeader read(Path file, FileChannel channel) throws IOException {
    byte[] data = bytes(channel);
    byte[] current = LogFormat.header(0).array(); // magic and version; the generation varies
    int fixed = Math.min(data.length, 8);
    if (data.length < LogFormat.HEADER_SIZE && Arrays.equals(data, 0, fixed, current, 0, fixed)) {
      return new LogHeader(false, 0); // created, but the crash came before its header was complete
    }
    if (data.length < 8) {
      throw LogFormat.corrupt(file, 0, "not a SafeRetry key store file (bad header)");
    }
    if (!Arrays.equals(data, 0, 4, LogFormat.MAGIC, 0, 4)) {
      throw LogFormat.corrupt(file, 0, "not a SafeRetry key store file (bad magic)");
    }
    int version = ByteBuffer.wrap(data).getInt(4);
    if (version != LogFormat.VERSION) {
      throw LogFormat.corrupt(
          file,
          4,
          "unsupported format version "
              + Integer.toUnsignedString(version)
              + " (this SDK reads format version "
              + LogFormat.VERSION
              + " only)");
    }
    return new LogHeader(true, ByteBuffer.wrap(data).getLong(8));
  }

  /**
   * The generation of the log open on {@code channel}, or 0 if it has no complete header of this
   * version.
   */
  public static long generationOf(FileChannel channel) throws IOException {
    byte[] header = bytes(channel);
    boolean current =
        header.length == LogFormat.HEADER_SIZE
            && Arrays.equals(header, 0, 4, LogFormat.MAGIC, 0, 4)
            && ByteBuffer.wrap(header).getInt(4) == LogFormat.VERSION;
    return current ? ByteBuffer.wrap(header).getLong(8) : 0;
  }

  // The first bytes of the file, up to a header's length.
  private static byte[] bytes(FileChannel channel) throws IOException {
    ByteBuffer header = ByteBuffer.allocate((int) Math.min(channel.size(), LogFormat.HEADER_SIZE));
    while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
      // until the header is complete or the file ends
    }
    return header.array();
  }
}
