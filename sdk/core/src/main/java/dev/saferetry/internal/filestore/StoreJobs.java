package dev.saferetry.internal.filestore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.compaction.Compaction;
import dev.saferetry.internal.filestore.index.IntentIndex;
import dev.saferetry.internal.filestore.log.GroupCommitLog;
import dev.saferetry.internal.filestore.log.LogFrames;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's file-level jobs: preallocating and compacting in the background when a change makes
 * them due, purging in the caller's thread, and rewriting a log whose write or sync failed. Every
 * job holds the maintenance lock, then takes the state lock only as it needs it.
 *
 * <p>Thread-safe; fields marked so are guarded by the state lock.
 */
final class StoreJobs {
  private static final Logger LOG = LoggerFactory.getLogger(StoreJobs.class);

  private final Path dir;
  private final ReentrantLock stateLock;
  private final IntentIndex index;
  private final GroupCommitLog log;
  private final LogFrames frames;
  private final StoreOptions options;
  private final Maintenance maintenance = new Maintenance();
  private boolean compactionQueued; // state lock
  private long nextCompactionAt; // state lock
  private volatile long compactions;

  StoreJobs(
      Path dir,
      ReentrantLock stateLock,
      IntentIndex index,
      GroupCommitLog log,
      StoreOptions options) {
    this.dir = dir;
    this.stateLock = stateLock;
    this.index = index;
    this.log = log;
    this.frames = new LogFrames(log);
    this.options = options;
  }

  Maintenance maintenance() {
    return maintenance;
  }

  long compactions() {
    return compactions;
  }

  /**
   * Whether a background compaction is due: a log of at least {@code autoCompactBytes} whose bytes
   * are mostly superseded records. True once until it ran. The caller holds the state lock.
   */
  boolean compactionDue() {
    long end = log.end();
    if (compactionQueued
        || end < Math.max(options.autoCompactBytes(), nextCompactionAt)
        || (end - index.liveBytes()) * 2 < end) {
      return false;
    }
    compactionQueued = true;
    return true;
  }

  /** Schedules the background work a change made due; called without the state lock. */
  void afterChange(boolean compact) {
    if (log.space().shouldExtend()) {
      maintenance.submit(log.space()::extend);
    }
    if (compact) {
      maintenance.submit(this::compactInBackground);
    }
  }

  private void compactInBackground() {
    try {
      if (!log.failed() && !log.replaced()) {
        compact(null);
        LOG.debug("Compacted key store file {} in the background", log.file());
      }
    } catch (IOException | KeyStoreException e) {
      if (!maintenance.closing()) {
        LOG.warn(
            "Could not compact key store file {} ({}); using it as it is",
            log.file(),
            e.toString());
      }
      stateLock.lock();
      try {
        long end = log.end();
        nextCompactionAt = end + Math.max(options.autoCompactBytes(), end / 4);
      } finally {
        stateLock.unlock();
      }
    } finally {
      stateLock.lock();
      compactionQueued = false;
      stateLock.unlock();
    }
  }

  /**
   * Drops completed intents expired at {@code now} and compacts the log, in the caller's thread.
   *
   * @throws KeyStoreException if the store is closed, or the compaction failed (the log is intact)
   */
  int purge(Instant now, Runnable ensureOpen) {
    maintenance.jobs().lock();
    try {
      recoverIfFailed(ensureOpen);
      ensureOpen.run();
      return compact(now);
    } catch (IOException e) {
      throw new KeyStoreException(
          "cannot compact key store file " + log.file() + "; it is intact", e);
    } finally {
      maintenance.jobs().unlock();
    }
  }

  // Compacts; the caller holds the maintenance lock.
  private int compact(Instant purgeAt) throws IOException {
    int dropped =
        new Compaction(
                dir,
                stateLock,
                index,
                log,
                frames,
                purgeAt,
                false,
                maintenance::closing,
                options.compactionSteps())
            .run();
    compactions++;
    afterChange(false);
    return dropped;
  }

  /**
   * After a failed write or sync, rewrites the log (with the maintenance lock, which comes first);
   * {@code ensureReadable} runs under the state lock first.
   */
  void recoverIfFailed(Runnable ensureReadable) {
    if (!log.failed()) {
      return;
    }
    maintenance.jobs().lock();
    stateLock.lock();
    try {
      ensureReadable.run();
      if (log.failed()) {
        rewriteAfterFailure();
      }
    } finally {
      stateLock.unlock();
      maintenance.jobs().unlock();
    }
  }

  /**
   * Rewrites a failed log from its synced part and the bytes kept in memory, without the begins
   * whose sync failed; holds both locks.
   *
   * @throws KeyStoreException if the rewrite failed too; the next call tries again
   */
  void rewriteAfterFailure() {
    index.forgetAbove(log.durableSeq());
    try {
      new Compaction(dir, stateLock, index, log, frames, null, true, () -> false, step -> {}).run();
      LOG.warn(
          "Rewrote key store file {} after a failed write or sync; it is usable again", log.file());
    } catch (IOException | RuntimeException e) {
      throw new KeyStoreException(
          "key store file "
              + log.file()
              + " failed a write or sync, and rewriting it failed too ("
              + e.getMessage()
              + "); the next call tries again",
          e);
    }
  }
}
