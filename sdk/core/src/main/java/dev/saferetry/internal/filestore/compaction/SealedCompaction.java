package dev.saferetry.internal.filestore.compaction;

import dev.saferetry.internal.filestore.file.StoreFiles;
import dev.saferetry.internal.filestore.log.HighWaterMark;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.LogHeader;
import dev.saferetry.internal.filestore.log.LogReader;
import dev.saferetry.internal.filestore.record.RecordCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What opening does with a compaction file a crash left behind. A compaction's file is complete
 * once its seal is synced: it then holds every record of the log it replaces, and from the rename
 * on, records appended after it. So a sealed file that replaces the log in place (or that the mark
 * already names) is installed, finishing the rename; any other is an unfinished compaction and is
 * removed, the log staying in force. Stateless.
 */
public final class SealedCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(SealedCompaction.class);

  private SealedCompaction() {}

  /**
   * Finishes or removes {@code intents.log.compact}; returns the channel of the log in force.
   *
   * @param log the locked log, or null if there is none
   */
  public static FileChannel finish(Path dir, HighWaterMark.Found found, FileChannel log)
      throws IOException {
    Path compact = dir.resolve(Compaction.FILE);
    if (!Files.exists(compact, LinkOption.NOFOLLOW_LINKS)) {
      return log;
    }
    HighWaterMark.Value mark = found.value();
    if (log == null) {
      if (mark == null || mark.length() <= LogFormat.HEADER_SIZE) {
        Files.delete(compact); // nothing was ever synced: it cannot hold anything acknowledged
      }
      return null; // a synced mark without its log is refused, and the file left for inspection
    }
    StoreFiles.checkExistingFile(compact);
    FileChannel next = StoreFiles.openLocked(compact, false, StoreFiles.lockName(dir));
    boolean install = false;
    try {
      long generation = LogHeader.generationOf(next);
      long replaced = sealed(compact, next);
      install =
          generation != 0
              && replaced != -1
              && mark != null
              && (replaced == LogHeader.generationOf(log) || mark.generation() == generation);
    } finally {
      if (!install) {
        next.close();
      }
    }
    if (!install) {
      Files.delete(compact);
      LOG.info("Removed an unfinished compaction file in {}", dir);
      return log;
    }
    Files.move(compact, dir.resolve(LogFormat.LOG_FILE), StandardCopyOption.ATOMIC_MOVE);
    StoreFiles.forceDirectory(dir);
    StoreFiles.closeQuietly(log);
    LOG.info("Finished a compaction in {} that a crash interrupted", dir);
    return next;
  }

  // The generation the seal of channel says it replaced, or -1 if it has no valid seal.
  private static long sealed(Path file, FileChannel channel) throws IOException {
    long size = channel.size();
    LogReader reader = new LogReader(file, channel, size, LogReader.WINDOW);
    long pos = LogFormat.HEADER_SIZE;
    while (true) {
      int at = reader.load(pos, LogFormat.FRAME_HEADER_SIZE);
      int length = at < 0 ? 0 : ByteBuffer.wrap(reader.window(), at, 4).getInt();
      if (length <= 0 || length > LogFormat.MAX_PAYLOAD) {
        return -1;
      }
      at = reader.load(pos, LogFormat.FRAME_HEADER_SIZE + length);
      if (at < 0 || LogFormat.validFrameLength(reader.window(), at, reader.window().length) < 0) {
        return -1;
      }
      int payload = at + LogFormat.FRAME_HEADER_SIZE;
      if (length >= 9 && reader.window()[payload] == RecordCodec.SEAL) { // then, perhaps, a floor
        return ByteBuffer.wrap(reader.window(), payload + 1, 8).getLong();
      }
      pos += LogFormat.FRAME_HEADER_SIZE + length;
    }
  }
}
