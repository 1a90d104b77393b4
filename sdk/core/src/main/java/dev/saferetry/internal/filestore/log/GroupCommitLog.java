package dev.saferetry.internal.filestore.log;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.file.StoreFiles;
import java.io.IOException;
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
 * find no sync running becomes the leader and syncs, in its own thread, once for every record
 * appended so far; callers that arrive meanwhile wait for the next sync, which then covers all of
 * them. After each sync the leader moves the high-water mark (an overwrite, not a second sync).
 *
 * <p>Bytes appended since the last good sync are also kept in memory (completions are not synced on
 * their own, so a long run of them makes the next append sync). A failed append is undone by
 * cutting the file back to where it started: nothing before it was affected, so the log stays
 * usable (a full disk refuses one record, not the store). A failed sync is different: the kernel
 * may have dropped the dirty pages and reports the error once, so nothing written since the last
 * good sync can be trusted to be on disk, or even to read back. The log then refuses all work until
 * the store rewrites it into a new file, from the synced part of this one and the bytes in memory;
 * the begin records whose sync failed are lost for good, and a caller still waiting for one of them
 * is told so.
 *
 * <p>Thread-safe. The store's lock keeps appends in order and the file in place while it reads.
 */
public final class GroupCommitLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupCommitLog.class);

  /** Above this many unsynced bytes, the next completion waits for a sync. */
  public static final int UNSYNCED_LIMIT = 1024 * 1024;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition synced = lock.newCondition();
  private final long windowNanos;
  private final LogSpace space;

  // Sequence numbers whose records a failed sync lost: first to last, inclusive.
  private final TreeMap<Long, Long> lost = new TreeMap<>();

  private volatile Path file;
  private volatile FileChannel channel;

  // The identity (device and inode) of the open log, which its path must keep naming.
  private Object fileKey;

  // Set once the path names another file: the log refuses all work from then on.
  private volatile String replaced;

  private HighWaterMark mark;
  private long generation;
  private volatile long appendedSeq;
  private long appendedEnd;
  // written under the lock, also read without it by the accessors
  private volatile long durableSeq;
  private boolean syncing;
  private volatile Exception failure;
  private volatile long syncCount;
  private final UnsyncedBytes unsynced;

  /**
   * The log open on {@code channel}, vouched for by {@code mark}, with its records up to {@code
   * size}.
   */
  public GroupCommitLog(
      Path file, FileChannel channel, HighWaterMark mark, long generation, long size, long window) {
    this.file = file;
    this.channel = channel;
    this.mark = mark;
    this.generation = generation;
    this.appendedEnd = size;
    this.unsynced = new UnsyncedBytes(size);
    this.windowNanos = window;
    this.space = new LogSpace(this);
    this.fileKey = keyOf(file);
  }

  private static Object keyOf(Path file) {
    try {
      return StoreFiles.fileKey(file);
    } catch (IOException e) {
      return null; // then never in place: the first sync fails closed
    }
  }

  // Whether the log's path still names the open file. If another file took its place (an operator
  // copied the log and renamed the copy over it), this store would write to a file nobody reads,
  // and another process could open the copy: the log then refuses all work, for good. One stat of
  // the path; the caller holds the lock or is the sync leader.
  private boolean inPlace(Path at, Object key) {
    Object now = keyOf(at);
    if (now != null && now.equals(key)) {
      return true;
    }
    if (replaced == null) {
      replaced = at + " no longer names the file this store has open (it was replaced or removed)";
      LOG.error(
          "Key store file {} was replaced or removed behind the store; the store refuses all"
              + " work. Stop every process using the directory, check which copy of the log is"
              + " right, then reopen.",
          at);
    }
    return false;
  }

  /** Whether the log's path was found naming another file: the store refuses all work. */
  public boolean replaced() {
    return replaced != null;
  }

  /**
   * Appends the frames in {@code frames} at the end of the file and returns their sequence number.
   *
   * @throws KeyStoreException if the write failed; the frames are then not in the log
   */
  public long append(FrameBuffer frames) {
    lock.lock();
    try {
      checkUsable();
      long start = appendedEnd;
      try {
        StoreFiles.writeFully(channel, frames.view(), start);
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
      unsynced.append(frames.array(), frames.length());
      appendedEnd = start + frames.length();
      return ++appendedSeq;
    } finally {
      lock.unlock();
    }
  }

  // Cuts off what a failed write may have left; false if even that failed.
  private boolean undo(long start) {
    try {
      channel.truncate(start);
      space.truncated(start);
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
  public void awaitDurable(long seq) {
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

  // Syncs once for all appended records; called by the leader with the lock held.
  private void leadSync() {
    syncing = true;
    long target = appendedSeq;
    long end = appendedEnd;
    long syncedGeneration = generation;
    Path syncedFile = file;
    Object syncedKey = fileKey;
    Exception error = null;
    boolean inPlace = false;
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
      // In place before the mark moves (never move it for a file nobody reads) and after it:
      // a copy renamed over the log later holds these records, or is shorter than the mark.
      if (inPlace(syncedFile, syncedKey)) {
        mark.advance(syncedGeneration, end); // alone while syncing is set
        inPlace = inPlace(syncedFile, syncedKey);
      }
    } catch (IOException | RuntimeException e) {
      error = e;
    } finally {
      lock.lock();
    }
    syncing = false;
    if (error != null) {
      fail(error);
    } else if (!inPlace) {
      synced.signalAll(); // the waiters find the log refusing work
      return;
    } else {
      durableSeq = Math.max(durableSeq, target);
      unsynced.syncedTo(end);
      syncCount++;
    }
    synced.signalAll();
  }

  /** Marks the log failed after a failed sync; the caller holds the lock. */
  void fail(Exception error) {
    failure = error;
    LOG.warn("Sync of key store file {} failed ({}); it will be rewritten", file, error.toString());
    synced.signalAll();
  }

  /** A step that renames a file. */
  public interface Rename {
    void run() throws IOException;
  }

  /**
   * A file that replaces the log (a compaction's): locked, open, its generation and size.
   *
   * @param file the path it has once renamed: the log's
   */
  public record Replacement(Path file, FileChannel channel, long generation, long size) {}

  /**
   * Replaces the file by a compacted one that holds, synced, everything appended so far: checks
   * that the log's path still names the open file, then {@code rename}s the new one over it, with
   * syncs held off meanwhile (a sync between the two would find its file gone). The caller keeps
   * appends out (it holds the store's lock). After a failed sync, the records it did not cover are
   * lost for good: their callers are told so.
   *
   * @throws IOException if the rename failed; nothing was changed
   * @throws KeyStoreException if the log was replaced behind the store; nothing is renamed
   */
  public void install(Replacement next, Rename rename) throws IOException {
    FileChannel old;
    lock.lock();
    try {
      while (syncing) {
        synced.awaitUninterruptibly();
      }
      if (!inPlace(file, fileKey)) {
        checkUsable(); // throws: never rename over a file that replaced the log
      }
      rename.run();
      if (failure != null && durableSeq < appendedSeq) {
        lost.put(durableSeq + 1, appendedSeq);
      }
      failure = null;
      old = channel;
      file = next.file();
      channel = next.channel();
      fileKey = keyOf(file); // renamed over the log a moment ago, under the store's lock
      generation = next.generation();
      appendedEnd = next.size();
      durableSeq = appendedSeq;
      unsynced.reset(next.size());
      space.installed();
      synced.signalAll();
    } finally {
      lock.unlock();
    }
    StoreFiles.closeQuietly(old);
  }

  /** Makes every appended record durable, the preallocated space gone and the mark exact. */
  public void syncAll() {
    awaitDurable(appendedSeq);
    lock.lock();
    try {
      checkUsable(); // never move the mark of a log that was replaced
      long allocated = space.release(channel, appendedEnd);
      mark.writeDurably(new HighWaterMark.Value(generation, unsynced.start(), allocated));
    } catch (IOException e) {
      LOG.warn("Cannot sync the high-water mark {} ({})", mark.file(), e.toString());
    } finally {
      lock.unlock();
    }
  }

  /** The preallocation of this log's file. */
  public LogSpace space() {
    return space;
  }

  /** Whether a write or sync failed since the last rewrite. */
  public boolean failed() {
    return failure != null;
  }

  /** The sequence number of the last record known to be on stable storage. */
  public long durableSeq() {
    return durableSeq;
  }

  /** The end of the records appended so far; the store's lock keeps it still. */
  public long end() {
    lock.lock();
    try {
      return appendedEnd;
    } finally {
      lock.unlock();
    }
  }

  /** The end of the records synced so far. */
  public long durableEnd() {
    lock.lock();
    try {
      return unsynced.start();
    } finally {
      lock.unlock();
    }
  }

  /** The bytes appended since the last good sync; the caller holds {@link #lock()}. */
  UnsyncedBytes unsyncedLocked() {
    return unsynced;
  }

  /** How many bytes were appended since the last good sync. */
  public int unsyncedBytes() {
    lock.lock();
    try {
      return unsynced.length();
    } finally {
      lock.unlock();
    }
  }

  /** The generation of the file in use. */
  public long generation() {
    lock.lock();
    try {
      return generation;
    } finally {
      lock.unlock();
    }
  }

  /** The path of the log. */
  public Path file() {
    return file;
  }

  /** The channel of the file in use; the store's lock keeps it from being replaced meanwhile. */
  public FileChannel channel() {
    return channel;
  }

  /** The high-water mark of this log. */
  public HighWaterMark mark() {
    return mark;
  }

  ReentrantLock lock() {
    return lock;
  }

  /** The end of the records appended so far; the caller holds {@link #lock()}. */
  long appendedEndLocked() {
    return appendedEnd;
  }

  /** The end of the records synced so far; the caller holds {@link #lock()}. */
  long durableEndLocked() {
    return unsynced.start();
  }

  /** How many syncs the log performed, for statistics. */
  public long syncCount() {
    return syncCount;
  }

  /** How many records were appended, for statistics. */
  public long appendCount() {
    return appendedSeq;
  }

  /** Throws if the log may not be written; the caller holds {@link #lock()}. */
  public void checkUsable() {
    if (replaced != null) {
      throw new KeyStoreException(
          "key store file "
              + replaced
              + "; another process may be using a copy. This store refuses all work and writes"
              + " nothing more; the record was not stored");
    }
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
