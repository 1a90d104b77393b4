package dev.saferetry.internal.filestore.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Preallocates the log ahead of its records, so that the sync of a record does not also have to
 * write the file's new size: zeros are written and synced beyond the end in chunks (64 KiB to 1
 * MiB, growing with the log), in the background, and records then overwrite them. The high-water
 * mark records, durably and first, how far the zeros go, so that on open they read as space not yet
 * written while zeros beyond it stay damage. Closing the store cuts the unused zeros off.
 *
 * <p>An optimisation only: if writing zeros fails (a full disk), the log grows by plain appends
 * until a later try succeeds. A failed sync of the zeros fails the log like a failed record sync:
 * the kernel reports a lost write once, to whichever sync comes first.
 *
 * <p>Guarded by the log's lock, except the syncs.
 */
public final class LogSpace {
  private static final Logger LOG = LoggerFactory.getLogger(LogSpace.class);
  static final int MIN_CHUNK = 64 * 1024;
  static final int MAX_CHUNK = 1024 * 1024;
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(MIN_CHUNK).asReadOnlyBuffer();

  private final GroupCommitLog log;
  private boolean enabled;
  private long allocated;
  private boolean requested;
  private long retryAt;
  private boolean warned;

  LogSpace(GroupCommitLog log) {
    this.log = log;
  }

  /**
   * Sets the state found on open, before any append: zeros preallocated up to {@code allocated} (0
   * if none), and whether to preallocate at all.
   */
  public void start(long allocated, boolean enabled) {
    this.allocated = allocated;
    this.enabled = enabled;
  }

  /** The end of the preallocated zeros, or 0 if none; the caller holds the log's lock. */
  long allocated() {
    return allocated;
  }

  /** Whether more space should be preallocated now; true once until {@link #extend} ran. */
  public boolean shouldExtend() {
    log.lock().lock();
    try {
      long end = log.appendedEndLocked();
      if (!enabled || requested || end < retryAt || allocated - end >= chunk(end) / 2) {
        return false;
      }
      requested = true;
      return true;
    } finally {
      log.lock().unlock();
    }
  }

  /** Preallocates the next chunk: mark first (synced), then zeros, then their sync. */
  public void extend() {
    FileChannel channel;
    long generation;
    long target;
    long durable;
    log.lock().lock();
    try {
      requested = false;
      if (!enabled || log.failed() || log.replaced()) {
        return;
      }
      long from = Math.max(allocated, log.appendedEndLocked());
      target = roundUp(from + chunk(from));
      channel = log.channel();
      generation = log.generation();
      durable = log.durableEndLocked();
    } finally {
      log.lock().unlock();
    }
    try {
      log.mark().allocate(generation, durable, target);
    } catch (IOException e) {
      backOff(e);
      return;
    }
    if (writeZeros(channel, target)) {
      syncZeros(channel);
    }
  }

  private boolean writeZeros(FileChannel channel, long target) {
    log.lock().lock();
    try {
      if (log.channel() != channel || log.failed() || log.replaced()) {
        return false; // replaced or failed meanwhile
      }
      long from = Math.max(allocated, log.appendedEndLocked());
      try {
        for (long at = from; at < target; ) {
          at += channel.write(ZEROS.duplicate().limit((int) Math.min(MIN_CHUNK, target - at)), at);
        }
      } catch (IOException e) {
        undo(channel, from, e);
        return false;
      }
      allocated = Math.max(allocated, target);
      return true;
    } finally {
      log.lock().unlock();
    }
  }

  private void undo(FileChannel channel, long from, IOException cause) {
    try {
      channel.truncate(from);
      backOff(cause);
    } catch (IOException e) {
      log.fail(e);
    }
  }

  private void syncZeros(FileChannel channel) {
    try {
      channel.force(false);
    } catch (IOException e) {
      log.lock().lock();
      try {
        if (log.channel() == channel) {
          log.fail(e);
        }
      } finally {
        log.lock().unlock();
      }
    }
  }

  private void backOff(IOException e) {
    log.lock().lock();
    try {
      long end = log.appendedEndLocked();
      retryAt = end + chunk(end);
      if (!warned) {
        warned = true;
        LOG.warn(
            "Cannot preallocate key store file {} ({}); appending without preallocation for now",
            log.file(),
            e.toString());
      }
    } finally {
      log.lock().unlock();
    }
  }

  /** A failed append cut the file back to {@code end}. The caller holds the log's lock. */
  void truncated(long end) {
    allocated = Math.min(allocated, end);
  }

  /** A compacted file replaced the log; it is not preallocated yet. The caller holds the lock. */
  void installed() {
    allocated = 0;
    requested = false;
    retryAt = 0;
  }

  /**
   * Cuts the unused zeros off before closing: the file then ends with its last record. Returns what
   * stays preallocated (0, unless cutting failed). The caller holds the log's lock.
   */
  long release(FileChannel channel, long end) {
    if (allocated <= end) {
      return 0;
    }
    try {
      channel.truncate(end);
      channel.force(false);
      allocated = 0;
    } catch (IOException e) {
      // harmless: the mark still vouches for the zeros
    }
    return allocated;
  }

  private static long chunk(long end) {
    return Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, roundUp(end / 8)));
  }

  private static long roundUp(long offset) {
    return (offset + 4095) / 4096 * 4096;
  }
}
