package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
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
final class GroupCommitLog implements AutoCloseable, IntentIndex.Frames {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  /** Above this many unsynced bytes, the next completion waits for a sync. */
  static final int UNSYNCED_LIMIT = 1024 * 1024;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition synced = lock.newCondition();
  private final long windowNanos;
  final LogSpace space;

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
  private byte[] unsynced = new byte[4096];
  private int unsyncedLength;
  private byte[] scratch = new byte[512];
  private final PayloadReader reader = new PayloadReader();

  GroupCommitLog(
      Path file, FileChannel channel, HighWaterMark mark, long generation, long size, long window) {
    this.file = file;
    this.channel = channel;
    this.mark = mark;
    this.generation = generation;
    this.appendedEnd = size;
    this.durableEnd = size;
    this.windowNanos = window;
    this.space = new LogSpace(this);
  }

  /**
   * Appends the frames in {@code frames} at the end of the file and returns their sequence number.
   *
   * @throws KeyStoreException if the write failed; the frames are then not in the log
   */
  long append(FrameBuffer frames) {
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
      keepUnsynced(frames.array(), frames.length());
      appendedEnd = start + frames.length();
      return ++appendedSeq;
    } finally {
      lock.unlock();
    }
  }

  private void keepUnsynced(byte[] bytes, int length) {
    if (unsyncedLength + length > unsynced.length) {
      unsynced = Arrays.copyOf(unsynced, Math.max(unsynced.length * 2, unsyncedLength + length));
    }
    System.arraycopy(bytes, 0, unsynced, unsyncedLength, length);
    unsyncedLength += length;
  }

  /** Cuts off what a failed write may have left; false if even that failed. */
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
    long syncedGeneration = generation;
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
      mark.advance(syncedGeneration, end); // alone while syncing is set
    } catch (IOException | RuntimeException e) {
      error = e;
    } finally {
      lock.lock();
    }
    syncing = false;
    if (error != null) {
      fail(error);
    } else {
      durableSeq = Math.max(durableSeq, target);
      trimUnsynced(end);
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

  /** Drops the bytes now synced up to {@code end} from memory. */
  private void trimUnsynced(long end) {
    if (end <= durableEnd) {
      return;
    }
    int drop = (int) (end - durableEnd);
    System.arraycopy(unsynced, drop, unsynced, 0, unsyncedLength - drop);
    unsyncedLength -= drop;
    durableEnd = end;
    if (unsynced.length > 64 * 1024 && unsyncedLength < unsynced.length / 4) {
      unsynced = Arrays.copyOf(unsynced, Math.max(4096, unsyncedLength * 2));
    }
  }

  /**
   * The payload of the frame at {@code offset}: from memory if it was not synced yet, else from the
   * file. The caller holds the store's lock, which keeps the file in place.
   */
  @Override
  public PayloadReader read(long offset) {
    long position = IntentTable.position(offset);
    long limit;
    lock.lock();
    try {
      limit = durableEnd;
      if (position >= durableEnd) {
        int at = (int) (position - durableEnd);
        int length = at + 4 <= unsyncedLength ? ByteBuffer.wrap(unsynced, at, 4).getInt() : -1;
        if (length > 0 && at + LogFormat.FRAME_HEADER_SIZE + (long) length <= unsyncedLength) {
          int frame = LogFormat.FRAME_HEADER_SIZE + length;
          scratch = scratch.length >= frame ? scratch : new byte[frame];
          System.arraycopy(unsynced, at, scratch, 0, frame);
        } else {
          scratch[0] = scratch[1] = scratch[2] = scratch[3] = 0;
        }
        return checked(position);
      }
    } finally {
      lock.unlock();
    }
    try {
      scratch = LogReader.readFrame(channel, position, scratch, limit);
    } catch (IOException e) {
      throw LogReader.unreadable(file, position, e);
    }
    return checked(position);
  }

  private PayloadReader checked(long position) {
    int length = LogFormat.validFrameLength(scratch, 0, scratch.length);
    if (length < 0) {
      throw LogScanner.corrupt(file, position, "a record the index points to is not valid");
    }
    return reader.reset(scratch, LogFormat.FRAME_HEADER_SIZE, length);
  }

  /**
   * Returns the bytes of {@code [from, to)}: from memory where they were not synced yet, else from
   * the file. For copying records into a compacted file.
   */
  byte[] copy(long from, long to) throws IOException {
    byte[] bytes = new byte[(int) (to - from)];
    long fileEnd;
    lock.lock();
    try {
      fileEnd = Math.min(to, Math.max(from, durableEnd));
      if (to > fileEnd) {
        int at = (int) (fileEnd - durableEnd);
        System.arraycopy(unsynced, at, bytes, (int) (fileEnd - from), (int) (to - fileEnd));
      }
    } finally {
      lock.unlock();
    }
    ByteBuffer head = ByteBuffer.wrap(bytes, 0, (int) (fileEnd - from));
    while (head.hasRemaining()) {
      if (channel.read(head, from + head.position()) < 0) {
        throw new IOException("key store file " + file + " ended early");
      }
    }
    return bytes;
  }

  /**
   * Replaces the file by a compacted one that holds, synced, everything appended so far. Syncs are
   * held off meanwhile. The caller keeps appends out (it holds the store's lock). After a failed
   * sync, the records it did not cover are lost for good: their callers are told so.
   */
  void install(Compaction.Installed next) {
    FileChannel old;
    lock.lock();
    try {
      while (syncing) {
        synced.awaitUninterruptibly();
      }
      if (failure != null && durableSeq < appendedSeq) {
        lost.put(durableSeq + 1, appendedSeq);
      }
      failure = null;
      old = channel;
      file = next.file();
      channel = next.channel();
      generation = next.generation();
      appendedEnd = next.size();
      durableEnd = next.size();
      durableSeq = appendedSeq;
      unsyncedLength = 0;
      space.installed();
      synced.signalAll();
    } finally {
      lock.unlock();
    }
    StoreFiles.closeQuietly(old);
  }

  /** Makes every appended record durable, the preallocated space gone and the mark exact. */
  void syncAll() {
    awaitDurable(appendedSeq);
    lock.lock();
    try {
      long allocated = space.release(channel, appendedEnd);
      mark.writeDurably(new HighWaterMark.Value(generation, durableEnd, allocated));
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

  /** The end of the records appended so far; the store's lock keeps it still. */
  long end() {
    lock.lock();
    try {
      return appendedEnd;
    } finally {
      lock.unlock();
    }
  }

  /** The end of the records synced so far. */
  long durableEnd() {
    lock.lock();
    try {
      return durableEnd;
    } finally {
      lock.unlock();
    }
  }

  /** How many bytes were appended since the last good sync. */
  int unsyncedBytes() {
    lock.lock();
    try {
      return unsyncedLength;
    } finally {
      lock.unlock();
    }
  }

  long generation() {
    lock.lock();
    try {
      return generation;
    } finally {
      lock.unlock();
    }
  }

  Path file() {
    return file;
  }

  FileChannel channel() {
    return channel;
  }

  HighWaterMark mark() {
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
    return durableEnd;
  }

  /** How many syncs the log performed, for statistics. */
  long syncCount() {
    return syncCount;
  }

  /** How many records were appended, for statistics. */
  long appendCount() {
    return appendedSeq;
  }

  /** Throws if the log may not be written; the caller holds {@link #lock()}. */
  void checkUsable() {
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
