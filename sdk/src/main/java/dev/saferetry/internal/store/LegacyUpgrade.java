package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a log of format version 1 or 2 (written by earlier releases), checked as strictly as a
 * current one, and rewrites it in the current format before the store uses it: the same records, in
 * the same order, under a new generation, sealed as a compaction of the old file. Stateless.
 */
final class LegacyUpgrade {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  private LegacyUpgrade() {}

  /**
   * Checks and upgrades the old log open on {@code channel}; returns the locked channel of the
   * rewritten log, which replaced it.
   *
   * @throws KeyStoreException if the old log is damaged or does not match its mark, or the rewrite
   *     failed (then the old log is unchanged)
   */
  static FileChannel run(
      Path dir, Path file, FileChannel channel, HighWaterMark.Found found, LogScanner.Header header)
      throws IOException {
    byte[] data = StoreFiles.readAll(channel, file);
    MarkCheck.identity(dir, file, found, header, data.length, false);
    LogScanner.LegacyScan scan = LogScanner.scanLegacy(file, data, header);
    long tornEnd = LogTail.check(file, channel, scan.validEnd(), data.length, 0);
    HighWaterMark.Value value = found.value();
    MarkCheck.length(dir, file, value == null ? 0 : value.length(), scan.validEnd());
    if (tornEnd > scan.validEnd()) {
      TornTail.cut(dir, file, channel, scan.validEnd(), tornEnd);
    }
    List<IntentRecord> records = replay(scan.entries());
    FileChannel upgraded;
    try {
      upgraded = rewrite(dir, records, header.generation());
    } catch (IOException | RuntimeException e) {
      throw new KeyStoreException(
          "cannot upgrade key store file "
              + file
              + " to format "
              + LogFormat.VERSION
              + " ("
              + e
              + "); it is unchanged",
          e);
    }
    StoreFiles.closeQuietly(channel);
    LOG.info("Upgraded key store file {} to format {}", file, LogFormat.VERSION);
    return upgraded;
  }

  /** The live records of an old log, in the order the old store listed them. */
  private static List<IntentRecord> replay(List<LogEntry> entries) {
    record Id(IntentScope scope, String intentId) {}
    Map<Id, IntentRecord> live = new LinkedHashMap<>();
    for (LogEntry entry : entries) {
      Id id = new Id(entry.scope(), entry.intentId());
      if (entry instanceof LogEntry.Begin begin) {
        live.put(id, begin.record());
      } else if (entry instanceof LogEntry.Complete c) {
        IntentRecord existing = live.get(id);
        if (existing != null && existing.key().equals(c.key())) {
          live.put(id, existing.complete(c.state(), c.status(), c.resourceId()));
        }
      } else {
        live.remove(id);
      }
    }
    return new ArrayList<>(live.values());
  }

  /**
   * Writes the records to a new file, seals and syncs it, points the mark at it and renames it over
   * the old log. A crash before the mark moved leaves the old log in force (the new file is removed
   * on open); after it, opening finishes the rename.
   */
  private static FileChannel rewrite(Path dir, List<IntentRecord> records, long oldGeneration)
      throws IOException {
    Path temp = dir.resolve(LogFormat.COMPACT_FILE);
    Files.deleteIfExists(temp);
    long generation = LogFormat.newGeneration();
    FrameBuffer out = new FrameBuffer();
    out.putBytes(LogFormat.header(generation).array(), 0, LogFormat.HEADER_SIZE);
    Scopes scopes = new Scopes();
    for (IntentRecord r : records) {
      int scopeId = scopes.idOf(r.scope());
      if (scopeId < 0) {
        scopeId = scopes.nextId();
        scopes.define(scopeId, r.scope());
        CompactCodec.scope(out, scopeId, r.scope());
      }
      if (r.state() == IntentState.PENDING) {
        CompactCodec.begin(out, scopeId, r);
      } else {
        CompactCodec.complete(out, scopeId, r);
      }
    }
    CompactCodec.seal(out, oldGeneration);
    FileChannel channel = StoreFiles.openLocked(temp, true, "compaction file " + temp);
    boolean markMoved = false;
    try {
      StoreFiles.writeFully(channel, out.view(), 0);
      channel.force(false);
      HighWaterMark.create(dir, new HighWaterMark.Value(generation, out.length(), 0)).close();
      markMoved = true;
      Files.move(temp, dir.resolve(LogFormat.LOG_FILE), StandardCopyOption.ATOMIC_MOVE);
      StoreFiles.forceDirectory(dir);
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      if (!markMoved) {
        Files.deleteIfExists(temp);
      } // else the sealed file, which the mark names, is installed by the next open
      throw e;
    }
  }
}
