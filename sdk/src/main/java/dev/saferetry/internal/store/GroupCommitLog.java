package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append side of the log with group commit. Each append gets a sequence number; a caller that
 * needs its record durable waits until a sync covering that number completed. The first waiter to
 * find no sync running becomes the leader and syncs once for every record appended so far; callers
 * that arrive meanwhile wait for the next sync, which then covers all of them. After each sync the
 * leader moves the high-water mark (an overwrite, not a second sync).
 *
 * <p>A failed append is undone by cutting the file back to where it started: the write may have
 * left part of a frame, but nothing before it was affected, so the log stays usable (a full disk
 * refuses one record, not the store). A failed sync is different: the kernel may have dropped the
 * dirty pages and reports the error once, so nothing written since the last good sync can be
 * trusted to be on disk, even if a later sync succeeds. The log then refuses all work until the
 * store {@link #rewrite rewrites} it from memory into a new file; the records whose sync failed are
 * lost for good, and a caller still waiting for one of them is told so.
 *
 * <p>Thread-safe.
 */
final class GroupCommitLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  /** What a rewrite installs: the new file and channel, their generation and size. */
  interface Rewrite {
    Compactor.Rewritten run(HighWaterMark mark, HighWaterMark.Value current) throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition synced = lock.newCondition();
  private final long windowNanos;

  /** Sequence numbers whose records a failed sync lost: first to last, inclusive. */
  private final TreeMap<Long, Long> lost = new TreeMap<>();

  private Path file;
  private FileChannel channel;
  private HighWaterMark mark;
  private long generation;
  private volatile long appendedSeq;
  private long appendedEnd;
  // written under the lock, also read without it by the accessors
  private volatile long durableSeq;
  private long durableEnd;
  private boolean syncing;
  private volatile Exception failure;
  private volatile long syncCount;

  GroupCommitLog(LogOpener.Opened opened, long windowNanos) {
    this.file = opened.file();
    this.channel = opened.channel();
    this.mark = opened.mark();
    this.generation = opened.generation();
    this.appendedEnd = opened.size();
    this.durableEnd = opened.size();
    this.windowNanos = windowNanos;
  }

  /**
   * Appends one frame at the end of the file and returns its sequence number.
   *
   * @throws KeyStoreException if the write failed; the frame is then not in the log
   */
  long append(ByteBuffer frame) {
    lock.lock();
    try {
      checkUsable();
      long start = appendedEnd;
      try {
        StoreFiles.writeFully(channel, frame);
      } catch (IOException e) {
        if (!undo(start)) {
          failure = e;
        }
        throw new KeyStoreException(
            "cannot append to key store file "
                + file
                + " ("
                + e.getMessage()
                + "); the record was not stored",
            e);
      }
      appendedEnd = start + frame.limit();
      return ++appendedSeq;
    } finally {
      lock.unlock();
    }
  }

  /** Cuts off what a failed write may have left; false if even that failed. */
  private boolean undo(long start) {
    try {
      channel.truncate(start);
      channel.position(start);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Returns once the record with sequence number {@code seq} is on stable storage.
   *
   * @throws KeyStoreException if a sync failed before it covered the record
   */
  void awaitDurable(long seq) {
    lock.lock();
    try {
      while (true) {
        if (isLost(seq)) {
          throw new KeyStoreException(
              "key store file " + file + " failed a sync; the record was not stored");
        }
        if (durableSeq >= seq) {
          return;
        }
        checkUsable();
        if (syncing) {
          synced.awaitUninterruptibly();
        } else {
          leadSync();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean isLost(long seq) {
    Map.Entry<Long, Long> range = lost.floorEntry(seq);
    return range != null && seq <= range.getValue();
  }

  /** Syncs once for all appended records; called by the leader with the lock held. */
  private void leadSync() {
    syncing = true;
    long target = appendedSeq;
    long end = appendedEnd;
    Exception error = null;
    lock.unlock();
    try {
      if (windowNanos > 0) {
        LockSupport.parkNanos(windowNanos); // let more records join this sync
        lock.lock();
        target = appendedSeq;
        end = appendedEnd;
        lock.unlock();
      }
      channel.force(false);
      if (mark != null) { // null only for a version-1 log before its upgrade, which syncs nothing
        mark.advance(new HighWaterMark.Value(generation, end)); // alone while syncing is set
      }
    } catch (IOException | RuntimeException e) {
      error = e;
    } finally {
      lock.lock();
    }
    syncing = false;
    if (error != null) {
      failure = error;
      LOG.warn(
          "Sync of key store file {} failed ({}); it will be rewritten", file, error.toString());
    } else {
      durableSeq = Math.max(durableSeq, target);
      durableEnd = Math.max(durableEnd, end);
      syncCount++;
    }
    synced.signalAll();
  }

  /**
   * Replaces the file by a rewritten one that holds, synced, everything the store has: after a
   * compaction, or to recover from a failed write or sync. Syncs are held off meanwhile, so that
   * the mark moves only once. The caller keeps appends out (it holds the store's lock).
   *
   * @throws IOException if the rewrite failed; the log is unchanged (and still failed if it was)
   */
  void rewrite(Rewrite rewrite) throws IOException {
    lock.lock();
    try {
      while (syncing) {
        synced.awaitUninterruptibly();
      }
      syncing = true;
    } finally {
      lock.unlock();
    }
    Compactor.Rewritten next = null;
    IOException error = null;
    try {
      next =
          rewrite.run(mark, mark == null ? null : new HighWaterMark.Value(generation, durableEnd));
    } catch (IOException e) {
      error = e;
    } finally {
      install(next, error);
    }
    if (error != null) {
      throw error;
    }
  }

  private void install(Compactor.Rewritten next, IOException error) {
    FileChannel old = null;
    lock.lock();
    try {
      syncing = false;
      if (error instanceof Compactor.MarkMovedException) {
        failure = error;
      } else if (next != null) {
        if (failure != null && durableSeq < appendedSeq) {
          lost.put(durableSeq + 1, appendedSeq);
        }
        failure = null;
        old = channel;
        file = next.file();
        channel = next.channel();
        mark = next.mark();
        generation = next.generation();
        appendedEnd = next.size();
        durableEnd = next.size();
        durableSeq = appendedSeq;
      }
      synced.signalAll();
    } finally {
      lock.unlock();
    }
    StoreFiles.closeQuietly(old);
  }

  /** Makes every appended record durable and the mark exact; used at close. */
  void syncAll() {
    awaitDurable(appendedSeq);
    lock.lock();
    try {
      if (mark == null) {
        return;
      }
      mark.writeDurably(new HighWaterMark.Value(generation, durableEnd));
    } catch (IOException e) {
      LOG.warn("Cannot sync the high-water mark {} ({})", mark.file(), e.toString());
    } finally {
      lock.unlock();
    }
  }

  /** Whether a write or sync failed since the last rewrite. */
  boolean failed() {
    return failure != null;
  }

  /** The sequence number of the last record known to be on stable storage. */
  long durableSeq() {
    return durableSeq;
  }

  /** How many syncs the log performed, for statistics. */
  long syncCount() {
    return syncCount;
  }

  /** How many records were appended, for statistics. */
  long appendCount() {
    return appendedSeq;
  }

  private void checkUsable() {
    if (failure != null) {
      throw new KeyStoreException(
          "key store file "
              + file
              + " failed a write or sync and could not be rewritten yet ("
              + failure.getMessage()
              + "); it is retried on the next call",
          failure);
    }
    if (!channel.isOpen()) {
      throw new KeyStoreException("key store " + file + " is closed");
    }
  }

  /** Closes the files; the caller synced them first if it wanted to. */
  @Override
  public void close() {
    lock.lock();
    try {
      while (syncing) {
        synced.awaitUninterruptibly();
      }
      StoreFiles.closeQuietly(channel);
      StoreFiles.closeQuietly(mark);
    } finally {
      lock.unlock();
    }
  }
}
