package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;

/**
 * Rewrites the log with only the live records: write a new file beside it, sync it, rename it over
 * the old one atomically, sync the directory. A crash at any point leaves either the old file or
 * the new one, both complete. Stateless.
 */
final class Compactor {
  private Compactor() {}

  /**
   * Writes and installs the compacted log.
   *
   * @return the open channel of the new log, positioned at its end, for further appends
   * @throws IOException if any step failed; the old log is then untouched
   */
  static FileChannel rewrite(Path dir, Collection<IntentRecord> live) throws IOException {
    Path temp = dir.resolve(LogFormat.COMPACT_FILE);
    Files.deleteIfExists(temp);
    FileChannel channel = StoreFiles.open(temp, true);
    try {
      StoreFiles.writeFully(channel, ByteBuffer.wrap(encode(live)));
      channel.force(true);
      Files.move(temp, dir.resolve(LogFormat.LOG_FILE), StandardCopyOption.ATOMIC_MOVE);
      StoreFiles.forceDirectory(dir);
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /** Removes a compaction file left by a crash before its rename; the old log is complete. */
  static boolean deleteLeftover(Path dir) throws IOException {
    return Files.deleteIfExists(dir.resolve(LogFormat.COMPACT_FILE));
  }

  private static byte[] encode(Collection<IntentRecord> live) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(LogFormat.header().array());
    for (IntentRecord record : live) {
      writeFrame(out, new LogEntry.Begin(record));
      if (record.state() != IntentState.PENDING) {
        writeFrame(out, LogEntry.Complete.of(record));
      }
    }
    return out.toByteArray();
  }

  private static void writeFrame(ByteArrayOutputStream out, LogEntry entry) {
    ByteBuffer frame = LogFormat.frame(RecordCodec.encode(entry));
    out.write(frame.array(), 0, frame.limit());
  }
}
