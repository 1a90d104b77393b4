package dev.saferetry.internal.store;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file key store's engine: an in-memory index of the intents, rebuilt from the log on open and
 * kept in step with it. Every change is appended to the log under one lock, so the index and the
 * log agree on the order of events; waiting for durability happens outside that lock, so concurrent
 * {@link #begin} calls share syncs.
 *
 * <p>After a failed write or sync, the next call that changes something first rewrites the log from
 * the index into a new file, without the records whose sync failed; if that fails too (the disk is
 * still full), the call fails and the next one tries again. No reopen is needed.
 *
 * <p>Thread-safe.
 */
public final class LogStore implements KeyStore {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  /** Below this size a log is read fast enough that rewriting it on open is not worth it. */
  static final long AUTO_COMPACT_BYTES = 1024 * 1024;

  private final Path dir;
  private final Path file;
  private final DirectoryLock dirLock;
  private final GroupCommitLog log;
  private final ReentrantLock stateLock = new ReentrantLock();
  private final IntentIndex index = new IntentIndex();
  private boolean closed;

  private LogStore(Path dir, DirectoryLock dirLock, GroupCommitLog log) {
    this.dir = dir;
    this.file = dir.resolve(LogFormat.LOG_FILE);
    this.dirLock = dirLock;
    this.log = log;
  }

  /**
   * Opens (creating if needed) the store in an existing directory, locking it for this store's
   * lifetime. A failed open releases everything it opened.
   *
   * @param groupCommitWindowNanos how long a sync leader waits for more records to join
   * @throws KeyStoreException if the directory or file is unusable, damaged or locked
   */
  public static LogStore open(Path dir, long groupCommitWindowNanos) {
    Objects.requireNonNull(dir, "dir");
    StoreFiles.checkDirectory(dir);
    DirectoryLock lock = DirectoryLock.acquire(dir);
    LogOpener.Opened opened = null;
    GroupCommitLog log = null;
    try {
      opened = LogOpener.open(dir);
      log = new GroupCommitLog(opened, groupCommitWindowNanos);
      LogStore store = new LogStore(dir, lock, log);
      opened.entries().forEach(entry -> store.index.apply(entry, 0));
      if (opened.version() == LogFormat.VERSION_1) {
        store.upgrade();
      } else {
        store.compactIfMostlySuperseded(opened);
      }
      return store;
    } catch (RuntimeException e) {
      StoreFiles.closeQuietly(log);
      StoreFiles.closeQuietly(opened);
      lock.close();
      throw e;
    }
  }

  private void upgrade() {
    try {
      rewrite(Instant.MIN);
    } catch (IOException e) {
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
    LOG.info("Upgraded key store file {} to format {}", file, LogFormat.VERSION);
  }

  /**
   * Rewrites a large log on open when most of its records are superseded (completed, replaced or
   * abandoned intents). Drops nothing that is live, expired or not: only {@link #purgeExpired}
   * decides what has expired, with the caller's clock. An optimisation: if it fails (a full disk),
   * the store opens with the log as it is.
   */
  private void compactIfMostlySuperseded(LogOpener.Opened opened) {
    int live = index.size();
    int records = opened.entries().size();
    if (opened.size() >= AUTO_COMPACT_BYTES && records > 2 * live) {
      try {
        rewrite(Instant.MIN);
        LOG.info(
            "Compacted key store file {} on open: {} records, {} intents", file, records, live);
      } catch (IOException | KeyStoreException e) {
        LOG.warn("Could not compact key store file {} on open ({}); using it as it is", file, e);
      }
    }
  }

  @Override
  public BeginResult begin(IntentRecord candidate) {
    if (candidate.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a candidate must be PENDING");
    }
    IntentIndex.Entry result;
    boolean created;
    stateLock.lock();
    try {
      ensureWritable();
      IntentIndex.Entry existing = index.get(candidate.scope(), candidate.intentId());
      created =
          existing == null || IntentIndex.replaceable(existing.record(), candidate.createdAt());
      result =
          created
              ? new IntentIndex.Entry(candidate, append(new LogEntry.Begin(candidate)))
              : existing;
    } finally {
      stateLock.unlock();
    }
    // An existing record may still wait for its sync: nobody may use its key before it is durable.
    awaitDurable(result.beginSeq());
    return created ? BeginResult.created(result.record()) : BeginResult.existing(result.record());
  }

  @Override
  public void complete(IntentRecord completed) {
    if (completed.state() == IntentState.PENDING) {
      throw new IllegalArgumentException("a completion must be SUCCEEDED or FAILED");
    }
    stateLock.lock();
    try {
      ensureWritable();
      IntentIndex.Entry existing = index.get(completed.scope(), completed.intentId());
      if (existing != null && existing.record().key().equals(completed.key())) {
        append(LogEntry.Complete.of(completed));
      }
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public Optional<IntentRecord> find(IntentScope scope, String intentId) {
    stateLock.lock();
    try {
      ensureReadable();
      return Optional.ofNullable(index.get(scope, intentId)).map(IntentIndex.Entry::record);
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public List<IntentRecord> pending() {
    stateLock.lock();
    try {
      ensureReadable();
      return index.pending();
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    long seq;
    stateLock.lock();
    try {
      ensureWritable();
      if (index.get(scope, intentId) == null) {
        return false;
      }
      seq = append(new LogEntry.Abandon(scope, intentId));
    } finally {
      stateLock.unlock();
    }
    awaitDurable(seq);
    return true;
  }

  @Override
  public int purgeExpired(Instant now) {
    stateLock.lock();
    try {
      ensureWritable();
      try {
        rewrite(now);
      } catch (IOException e) {
        throw new KeyStoreException("cannot compact key store file " + file + "; it is intact", e);
      }
      return index.removeExpired(now);
    } finally {
      stateLock.unlock();
    }
  }

  /** Writes the records live at {@code now} to a new log; the caller holds the state lock. */
  private void rewrite(Instant now) throws IOException {
    List<IntentRecord> live = index.live(now);
    log.rewrite((mark, current) -> Compactor.rewrite(dir, live, mark, current));
  }

  /** Appends an entry, applies it to the index and returns its sequence number; holds the lock. */
  private long append(LogEntry entry) {
    long seq = log.append(LogFormat.frame(RecordCodec.encode(entry)));
    index.apply(entry, seq);
    return seq;
  }

  /** Waits for a record's sync; if the sync failed, its record is dropped from the index. */
  private void awaitDurable(long seq) {
    try {
      log.awaitDurable(seq);
    } catch (KeyStoreException e) {
      stateLock.lock();
      try {
        index.forgetAbove(log.durableSeq());
      } finally {
        stateLock.unlock();
      }
      throw e;
    }
  }

  /** Throws if closed; after a failed sync, first forgets what it lost. Holds the state lock. */
  private void ensureReadable() {
    if (closed) {
      throw new KeyStoreException("key store " + file + " is closed");
    }
    if (log.failed()) {
      index.forgetAbove(log.durableSeq());
    }
  }

  /** As {@link #ensureReadable}, and rewrites a failed log first. Holds the state lock. */
  private void ensureWritable() {
    ensureReadable();
    if (log.failed()) {
      try {
        rewrite(Instant.MIN);
        LOG.warn(
            "Rewrote key store file {} after a failed write or sync; it is usable again", file);
      } catch (IOException e) {
        throw new KeyStoreException(
            "key store file "
                + file
                + " failed a write or sync, and rewriting it failed too ("
                + e.getMessage()
                + "); the next call tries again",
            e);
      }
    }
  }

  /** How many fsyncs of appended records the store performed since it was opened. */
  public long syncCount() {
    return log.syncCount();
  }

  /** How many records the store appended since it was opened. */
  public long appendCount() {
    return log.appendCount();
  }

  /** Syncs outstanding completions, closes the file and releases the directory lock. */
  @Override
  public void close() {
    stateLock.lock();
    try {
      if (!closed) {
        closed = true;
        closeFiles();
      }
    } finally {
      stateLock.unlock();
    }
  }

  private void closeFiles() {
    try {
      if (log.failed()) {
        // leave a clean file behind: without the records whose sync failed, which were refused
        index.forgetAbove(log.durableSeq());
        rewrite(Instant.MIN);
      }
      log.syncAll();
    } catch (IOException | KeyStoreException e) {
      LOG.warn("Could not sync the last completions to {}; they will be replayed safely", file);
    } finally {
      log.close();
      dirLock.close();
    }
  }
}
