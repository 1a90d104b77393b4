package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the log of a locked directory: reads and checks it, cuts a torn tail (with a warning),
 * writes the header of a new file, and leaves the channel positioned for appends. Stateless.
 */
final class LogOpener {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  /** An opened log: its file, its channel positioned at the end, its size and valid records. */
  record Opened(Path file, FileChannel channel, long size, List<LogEntry> entries) {}

  private LogOpener() {}

  static Opened open(Path dir) {
    Path file = dir.resolve(LogFormat.LOG_FILE);
    FileChannel channel = null;
    try {
      if (Compactor.deleteLeftover(dir)) {
        LOG.info("Removed an unfinished compaction file in {}", dir);
      }
      channel = StoreFiles.open(file, true);
      LogScanner.Scan scan = LogScanner.scan(file, StoreFiles.readAll(channel, file));
      prepareForAppends(file, channel, scan);
      StoreFiles.forceDirectory(dir); // the file may have just been created
      return new Opened(file, channel, channel.size(), scan.entries());
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      if (e instanceof KeyStoreException kse) {
        throw kse;
      }
      throw new KeyStoreException("cannot open key store file " + file + " (" + e + ")", e);
    }
  }

  private static void prepareForAppends(Path file, FileChannel channel, LogScanner.Scan scan)
      throws IOException {
    long size = channel.size();
    boolean changed = false;
    if (scan.headerPresent() && scan.validEnd() < size) {
      LOG.warn(
          "Cut off a torn record at the end of key store file {} at offset {} ({} bytes); "
              + "the process stopped while writing it, before it was acknowledged",
          file,
          scan.validEnd(),
          size - scan.validEnd());
      channel.truncate(scan.validEnd());
      changed = true;
    }
    if (!scan.headerPresent()) {
      channel.truncate(0);
      StoreFiles.writeFully(channel, LogFormat.header());
      changed = true;
    }
    if (changed) {
      channel.force(false);
    }
    channel.position(channel.size());
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // opening failed already; that error is the one to report
      }
    }
  }
}
