package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The append side of the log with group commit. Each append gets a sequence number; a caller that
 * needs its record durable waits until a sync covering that number completed. The first waiter to
 * find no sync running becomes the leader and syncs once for every record appended so far; callers
 * that arrive meanwhile wait for the next sync, which then covers all of them.
 *
 * <p>After any failed write or sync the log refuses all further work: after a failed fsync the
 * kernel may have dropped the dirty pages, so nothing written since the last good sync can be
 * trusted to be on disk.
 *
 * <p>Thread-safe.
 */
final class GroupCommitLog implements AutoCloseable {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition synced = lock.newCondition();
  private final long windowNanos;
  private Path file;
  private FileChannel channel;
  private long appendedSeq;
  private long durableSeq;
  private boolean syncing;
  private Exception failure;
  private long syncCount;
  private long appendCount;

  GroupCommitLog(Path file, FileChannel channel, long windowNanos) {
    this.file = file;
    this.channel = channel;
    this.windowNanos = windowNanos;
  }

  /** Appends one frame at the end of the file and returns its sequence number. */
  long append(ByteBuffer frame) {
    lock.lock();
    try {
      checkUsable();
      try {
        StoreFiles.writeFully(channel, frame);
      } catch (IOException e) {
        failure = e;
        throw new KeyStoreException("cannot append to key store file " + file, e);
      }
      appendCount++;
      return ++appendedSeq;
    } finally {
      lock.unlock();
    }
  }

  /** Returns once the record with sequence number {@code seq} is on stable storage. */
  void awaitDurable(long seq) {
    lock.lock();
    try {
      while (durableSeq < seq) {
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

  /** Syncs once for all appended records; called by the leader with the lock held. */
  private void leadSync() {
    syncing = true;
    long target = appendedSeq;
    FileChannel syncChannel = channel;
    Exception error = null;
    lock.unlock();
    try {
      if (windowNanos > 0) {
        LockSupport.parkNanos(windowNanos); // let more records join this sync
        lock.lock();
        target = appendedSeq;
        lock.unlock();
      }
      syncChannel.force(false);
    } catch (IOException | RuntimeException e) {
      error = e;
    } finally {
      lock.lock();
    }
    syncing = false;
    if (error != null) {
      failure = error;
    } else {
      durableSeq = Math.max(durableSeq, target);
      syncCount++;
    }
    synced.signalAll();
  }

  /** Makes every appended record durable; used at close. */
  void syncAll() {
    long seq;
    lock.lock();
    try {
      seq = appendedSeq;
    } finally {
      lock.unlock();
    }
    awaitDurable(seq);
  }

  /**
   * Switches to a compacted file that already holds, synced, everything appended so far. The caller
   * must keep appends out (it holds the store's lock) while it builds the file.
   */
  void switchTo(Path newFile, FileChannel newChannel) {
    FileChannel old;
    lock.lock();
    try {
      while (syncing) {
        synced.awaitUninterruptibly();
      }
      old = channel;
      file = newFile;
      channel = newChannel;
      durableSeq = appendedSeq;
      synced.signalAll();
    } finally {
      lock.unlock();
    }
    closeQuietly(old);
  }

  /** How many syncs the log performed, for statistics. */
  long syncCount() {
    lock.lock();
    try {
      return syncCount;
    } finally {
      lock.unlock();
    }
  }

  /** How many records were appended, for statistics. */
  long appendCount() {
    lock.lock();
    try {
      return appendCount;
    } finally {
      lock.unlock();
    }
  }

  /** Throws if an earlier write or sync failed or the log is closed. */
  void ensureUsable() {
    lock.lock();
    try {
      checkUsable();
    } finally {
      lock.unlock();
    }
  }

  private void checkUsable() {
    if (failure != null) {
      throw new KeyStoreException(
          "key store file "
              + file
              + " failed a write or sync earlier and is no longer usable;"
              + " reopen the store",
          failure);
    }
    if (!channel.isOpen()) {
      throw new KeyStoreException("key store " + file + " is closed");
    }
  }

  /** Closes the file; the caller synced it first if it wanted to. */
  @Override
  public void close() {
    lock.lock();
    try {
      while (syncing) {
        synced.awaitUninterruptibly();
      }
      closeQuietly(channel);
    } finally {
      lock.unlock();
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // every record that had to be durable was synced before
    }
  }
}
