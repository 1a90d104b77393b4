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
 * Rewrites the log with only the live records, under a new generation: write a new file beside it
 * (locked, so that no other process can take it over once renamed), sync it, point the high-water
 * mark at it, rename it over the old log, sync the directory. A crash before the mark changed
 * leaves the old log in force; after it, the new file — complete and synced — is the log, and
 * opening finishes the rename if the crash came first. Stateless.
 */
final class Compactor {
  /**
   * The new log: its locked, open channel positioned at its end, generation and size, and the mark
   * that now describes it.
   */
  record Rewritten(
      Path file, FileChannel channel, long generation, long size, HighWaterMark mark) {}

  /** The rewrite failed after the mark moved and could not be moved back: the log must not grow. */
  static final class MarkMovedException extends IOException {
    private static final long serialVersionUID = 1L;

    MarkMovedException(IOException cause) {
      super("the high-water mark could not be restored after a failed rewrite", cause);
    }
  }

  private Compactor() {}

  /**
   * Writes and installs the compacted log.
   *
   * @param mark the directory's mark, or null to create one (a log upgraded from version 1)
   * @param previous the mark's current value, restored if the rename fails; null if none
   * @return the new log, with {@code mark} or the created one
   * @throws MarkMovedException if the rename failed and the mark could not be restored: the old log
   *     may still be used for reading, but appending to it would be lost on reopen
   * @throws IOException if any step failed; the old log is then in force, untouched
   */
  static Rewritten rewrite(
      Path dir, Collection<IntentRecord> live, HighWaterMark mark, HighWaterMark.Value previous)
      throws IOException {
    Path temp = dir.resolve(LogFormat.COMPACT_FILE);
    Files.deleteIfExists(temp);
    long generation = LogFormat.newGeneration();
    FileChannel channel = StoreFiles.openLocked(temp, true, "compaction file " + temp);
    boolean markMoved = false;
    HighWaterMark created = null;
    try {
      StoreFiles.writeFully(channel, ByteBuffer.wrap(encode(generation, live)));
      channel.force(true);
      HighWaterMark.Value next = new HighWaterMark.Value(generation, channel.size());
      if (mark == null) {
        created = HighWaterMark.create(dir, next);
      } else {
        mark.writeDurably(next);
      }
      markMoved = true;
      Files.move(temp, dir.resolve(LogFormat.LOG_FILE), StandardCopyOption.ATOMIC_MOVE);
      StoreFiles.forceDirectory(dir);
      Path log = dir.resolve(LogFormat.LOG_FILE);
      return new Rewritten(log, channel, generation, next.length(), mark == null ? created : mark);
    } catch (IOException | RuntimeException e) {
      channel.close();
      StoreFiles.closeQuietly(created);
      if (markMoved && !restore(dir, mark, previous)) {
        throw new MarkMovedException(e instanceof IOException io ? io : new IOException(e));
      }
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /** Moves the mark back to the old log; false if that failed (the compacted file is kept). */
  private static boolean restore(Path dir, HighWaterMark mark, HighWaterMark.Value previous) {
    try {
      if (previous == null) {
        Files.deleteIfExists(dir.resolve(HighWaterMark.FILE));
      } else if (mark != null) {
        mark.writeDurably(previous);
      } else {
        HighWaterMark.create(dir, previous).close();
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Removes a compaction file left by a crash before the mark moved to it. */
  static boolean deleteLeftover(Path dir) throws IOException {
    return Files.deleteIfExists(dir.resolve(LogFormat.COMPACT_FILE));
  }

  private static byte[] encode(long generation, Collection<IntentRecord> live) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(LogFormat.header(generation).array());
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
