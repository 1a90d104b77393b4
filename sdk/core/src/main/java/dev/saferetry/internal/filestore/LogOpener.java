package dev.saferetry.internal.filestore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.compaction.SealedCompaction;
import dev.saferetry.internal.filestore.file.StoreFiles;
import dev.saferetry.internal.filestore.index.IntentIndex;
import dev.saferetry.internal.filestore.index.LogScanner;
import dev.saferetry.internal.filestore.log.HighWaterMark;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.LogHeader;
import dev.saferetry.internal.filestore.log.LogTail;
import dev.saferetry.internal.filestore.log.MarkCheck;
import dev.saferetry.internal.filestore.log.TornTail;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Opens the log of a store directory: locks it, finishes a compaction a crash interrupted after its
 * seal, reads and checks the log against the high-water mark, cuts a torn tail (saved to a side
 * file), and leaves the log indexed with the mark vouching for its content. A log or mark of
 * another format version is refused, changing nothing. Stateless.
 */
final class LogOpener {

  /**
   * An opened log: its file, locked channel, mark, generation, the end of its records, the end of
   * the zeros preallocated after them (0 if none), and its index.
   */
  record Opened(
      Path file,
      FileChannel channel,
      HighWaterMark mark,
      long generation,
      long size,
      long allocated,
      IntentIndex index)
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
    FileChannel channel = null;
    try {
      StoreFiles.checkExistingFile(file);
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        channel = StoreFiles.openLocked(file, false, StoreFiles.lockName(dir));
      }
      HighWaterMark.Found found = HighWaterMark.read(dir);
      Files.deleteIfExists(dir.resolve(HighWaterMark.NEW_FILE));
      channel = SealedCompaction.finish(dir, found, channel);
      if (channel == null) {
        MarkCheck.refuseIfSynced(dir, file, found, "is missing");
        channel = StoreFiles.openLocked(file, true, StoreFiles.lockName(dir));
      }
      LogHeader header = LogHeader.read(file, channel);
      if (!header.complete()) {
        return startEmpty(dir, file, channel, found, channel.size() == 0 ? "is empty" : "is torn");
      }
      return read(dir, file, channel, found, header.generation());
    } catch (IOException | RuntimeException e) {
      StoreFiles.closeQuietly(channel);
      if (e instanceof KeyStoreException kse) {
        throw kse;
      }
      throw new KeyStoreException("cannot open key store file " + file + " (" + e + ")", e);
    }
  }

  // Reads, checks and indexes the log of generation; its mark is opened last.
  private static Opened read(
      Path dir, Path file, FileChannel channel, HighWaterMark.Found found, long generation)
      throws IOException {
    long size = channel.size();
    IntentIndex index = new IntentIndex((int) Math.min(size / 200, 1 << 26)); // about a begin and
    // a completion per intent: the table rarely grows while the log is read
    LogScanner.Scan scan = LogScanner.scan(file, channel, size, index);
    HighWaterMark.Value value = found.value();
    boolean sameGeneration = value != null && value.generation() == generation;
    boolean sealedOverMark =
        value != null
            && !sameGeneration
            && scan.sealEnd() > 0
            && scan.sealedPrevious() == value.generation();
    MarkCheck.identity(dir, file, found, generation, size, sealedOverMark);
    long allocated = sameGeneration ? value.allocated() : 0;
    long validEnd = scan.validEnd();
    long tornEnd = LogTail.check(file, channel, validEnd, size, allocated);
    long synced = sealedOverMark ? scan.sealEnd() : value == null ? 0 : value.length();
    MarkCheck.length(dir, file, synced, validEnd);
    if (tornEnd > validEnd) {
      TornTail.cut(dir, file, channel, validEnd, tornEnd);
    }
    boolean zerosKept = tornEnd == validEnd && size > validEnd;
    long kept = zerosKept ? Math.max(allocated, size) : 0;
    HighWaterMark mark =
        vouch(dir, channel, found, new HighWaterMark.Value(generation, validEnd, kept));
    return new Opened(file, channel, mark, generation, validEnd, zerosKept ? size : 0, index);
  }

  // Writes a fresh header into a log that has none (new, or torn while it was created), unless the
  // mark says records were synced into it: then it was deleted or emptied behind the store's back.
  private static Opened startEmpty(
      Path dir, Path file, FileChannel channel, HighWaterMark.Found found, String what)
      throws IOException {
    MarkCheck.refuseIfSynced(dir, file, found, what);
    HighWaterMark.Value value = found.value();
    long generation = value != null ? value.generation() : LogFormat.newGeneration();
    channel.truncate(0);
    StoreFiles.writeFully(channel, LogFormat.header(generation), 0);
    StoreFiles.forceDirectory(dir);
    HighWaterMark.Value start = new HighWaterMark.Value(generation, LogFormat.HEADER_SIZE, 0);
    HighWaterMark mark = vouch(dir, channel, found, start);
    return new Opened(file, channel, mark, generation, LogFormat.HEADER_SIZE, 0, new IntentIndex());
  }

  /** Syncs the log as read, then makes the mark say so. */
  static HighWaterMark vouch(
      Path dir, FileChannel channel, HighWaterMark.Found found, HighWaterMark.Value value)
      throws IOException {
    channel.force(true);
    if (found.value() == null) {
      return HighWaterMark.create(dir, value); // also replaces an empty mark
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
