package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the log of a store directory: locks it, finishes a compaction a crash interrupted, reads
 * and checks it against the high-water mark, cuts a torn tail (saved to a side file), and leaves it
 * positioned for appends with the mark vouching for its content. Stateless.
 */
final class LogOpener {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  /**
   * An opened log: its file, its locked channel positioned at the end, its mark (null for a
   * version-1 log, which gets one when it is upgraded), generation, version, size and records.
   */
  record Opened(
      Path file,
      FileChannel channel,
      HighWaterMark mark,
      long generation,
      int version,
      long size,
      List<LogEntry> entries)
      implements AutoCloseable {
    @Override
    public void close() {
      StoreFiles.closeQuietly(channel);
      StoreFiles.closeQuietly(mark);
    }
  }

  private LogOpener() {}

  /**
   * Opens the log of a directory whose lock the caller holds.
   *
   * @throws KeyStoreException if the log is locked, unreadable, damaged, or does not match its mark
   */
  static Opened open(Path dir) {
    Path file = dir.resolve(LogFormat.LOG_FILE);
    String lockName = "store directory " + dir;
    FileChannel channel = null;
    try {
      StoreFiles.checkExistingFile(file);
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        channel = StoreFiles.openLocked(file, false, lockName);
      }
      HighWaterMark.Found found = HighWaterMark.read(dir);
      Files.deleteIfExists(dir.resolve(HighWaterMark.NEW_FILE));
      channel = finishCompaction(dir, found, channel);
      if (channel == null) {
        refuseIfSynced(dir, file, found, "is missing");
        channel = StoreFiles.openLocked(file, true, lockName);
      }
      return read(dir, file, channel, found);
    } catch (IOException | RuntimeException e) {
      StoreFiles.closeQuietly(channel);
      if (e instanceof KeyStoreException kse) {
        throw kse;
      }
      throw new KeyStoreException("cannot open key store file " + file + " (" + e + ")", e);
    }
  }

  /** Reads and checks the locked log; its mark is opened last, when nothing can fail any more. */
  private static Opened read(Path dir, Path file, FileChannel channel, HighWaterMark.Found found)
      throws IOException {
    byte[] data = StoreFiles.readAll(channel, file);
    LogScanner.Header header = LogScanner.header(file, data);
    if (header.version() == 0) {
      HighWaterMark mark =
          startEmpty(dir, file, channel, found, data.length == 0 ? "is empty" : "is torn");
      long generation = mark.last().generation();
      return new Opened(
          file, channel, mark, generation, LogFormat.VERSION, LogFormat.HEADER_SIZE, List.of());
    }
    checkIdentity(dir, file, found, header, data.length);
    LogScanner.Scan scan = LogScanner.scan(file, data, header);
    checkLength(dir, file, found, scan.validEnd());
    if (scan.torn()) {
      TornTail.cut(dir, file, channel, data, scan.validEnd());
    }
    channel.position(scan.validEnd());
    HighWaterMark mark = null;
    if (header.version() == LogFormat.VERSION) {
      HighWaterMark.Value seen = new HighWaterMark.Value(header.generation(), scan.validEnd());
      mark = vouch(dir, channel, found, seen);
    }
    return new Opened(
        file,
        channel,
        mark,
        header.generation(),
        header.version(),
        scan.validEnd(),
        scan.entries());
  }

  /**
   * A crash after a compaction moved the mark to its new file, but before the rename: the new file
   * is complete and synced, so finish the rename. Any other compaction file is an unfinished one
   * and is removed; the old log is in force.
   */
  private static FileChannel finishCompaction(
      Path dir, HighWaterMark.Found found, FileChannel channel) throws IOException {
    Path compact = dir.resolve(LogFormat.COMPACT_FILE);
    if (!Files.exists(compact, LinkOption.NOFOLLOW_LINKS)) {
      return channel;
    }
    long wanted = found.value() == null ? 0 : found.value().generation();
    FileChannel next = null;
    if (wanted != 0 && (channel == null || generationOf(channel) != wanted)) {
      StoreFiles.checkExistingFile(compact);
      next = StoreFiles.openLocked(compact, false, "store directory " + dir);
      if (generationOf(next) != wanted) {
        StoreFiles.closeQuietly(next);
        next = null;
      }
    }
    if (next == null) {
      Compactor.deleteLeftover(dir);
      LOG.info("Removed an unfinished compaction file in {}", dir);
      return channel;
    }
    Files.move(compact, dir.resolve(LogFormat.LOG_FILE), StandardCopyOption.ATOMIC_MOVE);
    StoreFiles.forceDirectory(dir);
    StoreFiles.closeQuietly(channel);
    LOG.info("Finished a compaction in {} that a crash interrupted", dir);
    return next;
  }

  private static long generationOf(FileChannel channel) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(LogFormat.HEADER_SIZE);
    while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
      // until the header is complete or the file ends
    }
    boolean v2 = !header.hasRemaining() && header.getInt(4) == LogFormat.VERSION;
    return v2 ? header.getLong(8) : 0;
  }

  /**
   * Writes a fresh header into a log that has none (new, or torn while it was created), unless the
   * mark says records were synced into it: then it was deleted or emptied behind the store's back.
   */
  private static HighWaterMark startEmpty(
      Path dir, Path file, FileChannel channel, HighWaterMark.Found found, String what)
      throws IOException {
    refuseIfSynced(dir, file, found, what);
    HighWaterMark.Value value = found.value();
    long generation = value != null ? value.generation() : LogFormat.newGeneration();
    channel.truncate(0);
    StoreFiles.writeFully(channel, LogFormat.header(generation), 0);
    channel.position(LogFormat.HEADER_SIZE);
    StoreFiles.forceDirectory(dir);
    return vouch(dir, channel, found, new HighWaterMark.Value(generation, LogFormat.HEADER_SIZE));
  }

  private static void refuseIfSynced(Path dir, Path file, HighWaterMark.Found found, String what) {
    HighWaterMark.Value value = found.value();
    if (value != null && value.length() > LogFormat.HEADER_SIZE) {
      throw mismatch(
          dir, file, what + ", but records up to offset " + value.length() + " were synced in it");
    }
  }

  /** Checks that the log is the one the mark describes, or that there is a reason it has none. */
  private static void checkIdentity(
      Path dir, Path file, HighWaterMark.Found found, LogScanner.Header header, int size) {
    HighWaterMark.Value value = found.value();
    if (value != null && header.version() == LogFormat.VERSION_1) {
      throw mismatch(dir, file, "is a version-1 log, but the mark describes a newer one");
    }
    if (value != null && header.generation() != value.generation()) {
      throw mismatch(
          dir,
          file,
          "is not the log the mark describes: its generation at offset 8 is another one (the"
              + " file was replaced, for example by an older copy)");
    }
    if (!found.exists() && header.version() == LogFormat.VERSION && size > header.size()) {
      throw new KeyStoreException(
          "high-water mark "
              + dir.resolve(HighWaterMark.FILE)
              + " is missing, so the store cannot tell whether "
              + file
              + " was truncated; nothing was changed. Restore the mark; or, to accept the log as"
              + " it is, create an empty owner-only "
              + HighWaterMark.FILE
              + " (install -m 600 /dev/null "
              + dir.resolve(HighWaterMark.FILE)
              + ") and reopen");
    }
    if (found.accepted()) {
      LOG.warn(
          "High-water mark {} is empty: accepting {} as it is, as its operator asked",
          dir.resolve(HighWaterMark.FILE),
          file);
    }
  }

  private static void checkLength(Path dir, Path file, HighWaterMark.Found found, long validEnd) {
    HighWaterMark.Value value = found.value();
    if (value != null && validEnd < value.length()) {
      throw mismatch(
          dir,
          file,
          "has valid records up to offset "
              + validEnd
              + " only, but records up to offset "
              + value.length()
              + " were synced: it was truncated or damaged");
    }
  }

  private static KeyStoreException mismatch(Path dir, Path file, String what) {
    return new KeyStoreException(
        "key store file "
            + file
            + " "
            + what
            + " (high-water mark "
            + dir.resolve(HighWaterMark.FILE)
            + "); nothing was changed. Restore the log from a copy, or move the store's files"
            + " aside, then reopen.");
  }

  /** Syncs the log as read, then makes the mark say so. */
  private static HighWaterMark vouch(
      Path dir, FileChannel channel, HighWaterMark.Found found, HighWaterMark.Value value)
      throws IOException {
    channel.force(true);
    if (found.value() == null) {
      return HighWaterMark.create(dir, value); // also replaces an empty (accepting) mark
    }
    HighWaterMark mark = HighWaterMark.openExisting(dir, found.value());
    try {
      mark.writeDurably(value);
      return mark;
    } catch (IOException e) {
      mark.close();
      throw e;
    }
  }
}
