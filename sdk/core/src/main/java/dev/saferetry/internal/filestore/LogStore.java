package dev.saferetry.internal.filestore;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.file.StoreFiles;
import dev.saferetry.internal.filestore.index.IntentIndex;
import dev.saferetry.internal.filestore.log.FrameBuffer;
import dev.saferetry.internal.filestore.log.GroupCommitLog;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.LogFrames;
import dev.saferetry.internal.filestore.record.RecordCodec;
import dev.saferetry.internal.filestore.record.Scopes;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file key store's engine: an index of the intents, rebuilt from the log on open and kept in
 * step with it. Every change is appended to the log under one lock, so the index and the log agree
 * on the order of events; waiting for durability happens outside that lock, so concurrent {@link
 * #begin} calls share syncs. Preallocation and compaction run in the background ({@link
 * Maintenance}) and hold the lock only briefly.
 *
 * <p>After a failed write or sync, the next call that changes something first rewrites the log into
 * a new file, without the records whose sync failed; if that fails too (the disk is still full),
 * the call fails and the next one tries again. No reopen is needed.
 *
 * <p>Thread-safe. Locks are taken in one order: maintenance jobs, then the state, then the log.
 */
public final class LogStore implements KeyStore {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  private final Path dir;
  private final Path file;
  private final DirectoryLock dirLock;
  private final GroupCommitLog log;
  private final IntentIndex index;
  private final ReentrantLock stateLock = new ReentrantLock();
  private final StoreJobs jobs;
  private final FrameBuffer buffer = new FrameBuffer();
  private volatile boolean closed;

  private LogStore(
      Path dir,
      DirectoryLock dirLock,
      GroupCommitLog log,
      IntentIndex index,
      StoreOptions options) {
    this.dir = dir;
    this.file = dir.resolve(LogFormat.LOG_FILE);
    this.dirLock = dirLock;
    this.log = log;
    this.index = index;
    this.jobs = new StoreJobs(dir, stateLock, index, log, options);
    index.readFrom(new LogFrames(log));
  }

  /** Opens the store with the file key store's defaults and a group-commit window. */
  public static LogStore open(Path dir, long groupCommitWindowNanos) {
    return open(dir, StoreOptions.withWindow(groupCommitWindowNanos));
  }

  /**
   * Opens (creating if needed) the store in an existing directory, locking it for this store's
   * lifetime. A failed open releases everything it opened.
   *
   * @throws KeyStoreException if the directory or file is unusable, damaged or locked
   */
  public static LogStore open(Path dir, StoreOptions options) {
    Objects.requireNonNull(dir, "dir");
    StoreFiles.checkDirectory(dir);
    DirectoryLock lock = DirectoryLock.acquire(dir);
    LogOpener.Opened opened = null;
    try {
      opened = LogOpener.open(dir);
      GroupCommitLog log =
          new GroupCommitLog(
              opened.file(),
              opened.channel(),
              opened.mark(),
              opened.generation(),
              opened.size(),
              options.groupCommitWindowNanos());
      log.space().start(opened.allocated(), options.preallocate());
      if (log.space().shouldExtend()) {
        log.space().extend(); // before the first record, so that it already overwrites zeros
      }
      LogStore store = new LogStore(dir, lock, log, opened.index(), options);
      OwnerRecord.record(dir, LOG);
      store.jobs.afterChange(store.compactionDue());
      return store;
    } catch (RuntimeException e) {
      StoreFiles.closeQuietly(opened);
      lock.close();
      throw e;
    }
  }

  @Override
  public BeginResult begin(IntentRecord candidate) {
    if (candidate.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a candidate must be PENDING");
    }
    IntentRecord result;
    boolean created;
    long seq;
    boolean compact;
    lockWritable();
    try {
      IntentIndex.Found existing = index.find(candidate.scope(), candidate.intentId());
      created =
          existing == null || IntentIndex.replaceable(existing.record(), candidate.createdAt());
      if (created) {
        seq = appendBegin(existing, candidate);
        result = candidate;
      } else {
        seq = existing.beginSeq();
        result = existing.record();
      }
      compact = jobs.compactionDue();
    } finally {
      stateLock.unlock();
    }
    jobs.afterChange(compact);
    // An existing record may still wait for its sync: nobody may use its key before it is durable.
    awaitDurable(seq);
    return created ? BeginResult.created(result) : BeginResult.existing(result);
  }

  private long appendBegin(IntentIndex.Found replaced, IntentRecord record) {
    Scopes scopes = index.scopes();
    int scopeId = scopes.idOf(record.scope());
    boolean newScope = scopeId < 0;
    if (newScope) {
      scopeId = scopes.nextId();
    }
    buffer.clear();
    if (newScope) {
      RecordCodec.scope(buffer, scopeId, record.scope());
    }
    int at = buffer.length();
    RecordCodec.begin(buffer, scopeId, record);
    long start = log.end();
    long seq = log.append(buffer);
    if (newScope) {
      scopes.define(scopeId, record.scope());
    }
    index.addPending(replaced, scopeId, record, start + at, buffer.length() - at, seq);
    index.raiseFloor(record.createdAt());
    return seq;
  }

  @Override
  public void complete(IntentRecord completed) {
    if (completed.state() == IntentState.PENDING) {
      throw new IllegalArgumentException("a completion must be SUCCEEDED or FAILED");
    }
    while (true) {
      long beginToAwait = 0;
      long syncToAwait = 0;
      boolean compact;
      lockWritable();
      try {
        IntentIndex.Found existing = index.find(completed.scope(), completed.intentId());
        if (existing == null || !existing.record().key().equals(completed.key())) {
          return;
        }
        if (existing.beginSeq() > log.durableSeq()) {
          beginToAwait = existing.beginSeq(); // complete only what is durably begun
        } else {
          long seq = appendCompletion(existing, completed);
          syncToAwait = log.unsyncedBytes() > GroupCommitLog.UNSYNCED_LIMIT ? seq : 0;
        }
        compact = jobs.compactionDue();
      } finally {
        stateLock.unlock();
      }
      if (beginToAwait == 0) {
        jobs.afterChange(compact);
        awaitDurable(syncToAwait);
        return;
      }
      awaitDurable(beginToAwait);
    }
  }

  private long appendCompletion(IntentIndex.Found existing, IntentRecord completed) {
    IntentRecord done =
        existing.record().complete(completed.state(), completed.status(), completed.resourceId());
    buffer.clear();
    RecordCodec.complete(buffer, existing.scopeId(), done);
    long start = log.end();
    long seq = log.append(buffer);
    index.complete(existing, start, buffer.length());
    return seq;
  }

  @Override
  public Optional<IntentRecord> find(IntentScope scope, String intentId) {
    stateLock.lock();
    try {
      ensureReadable();
      return Optional.ofNullable(index.find(scope, intentId)).map(IntentIndex.Found::record);
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

  /**
   * The later of {@code clock} and the latest creation time this log has recorded, which survives
   * restarts and compactions: a clock stepped back after a restart does not make an expired pending
   * intent look fresh.
   */
  @Override
  public Instant expiryTime(Instant clock) {
    Objects.requireNonNull(clock, "clock");
    stateLock.lock();
    try {
      ensureReadable();
      return index.atFloor(clock);
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    long seq;
    boolean compact;
    lockWritable();
    try {
      IntentIndex.Found existing = index.find(scope, intentId);
      if (existing == null) {
        return false;
      }
      buffer.clear();
      RecordCodec.abandon(buffer, existing.scopeId(), intentId);
      seq = log.append(buffer);
      index.remove(existing);
      compact = jobs.compactionDue();
    } finally {
      stateLock.unlock();
    }
    jobs.afterChange(compact);
    awaitDurable(seq);
    return true;
  }

  /**
   * Drops completed records expired at {@code now} and compacts the log, in the caller's thread;
   * other callers are held up for one sync at most.
   */
  @Override
  public int purgeExpired(Instant now) {
    Objects.requireNonNull(now, "now");
    int dropped = jobs.purge(now, this::ensureOpen);
    LOG.debug("Purged {} expired intents from key store file {}", dropped, file);
    return dropped;
  }

  private boolean compactionDue() {
    stateLock.lock();
    try {
      return jobs.compactionDue();
    } finally {
      stateLock.unlock();
    }
  }

  // Takes the state lock with the log writable: after a failed write or sync, first rewrites it
  // (with the maintenance lock, which comes first).
  private void lockWritable() {
    while (true) {
      jobs.recoverIfFailed(this::ensureReadable);
      stateLock.lock();
      if (!log.failed()) {
        try {
          ensureReadable();
          return;
        } catch (RuntimeException e) {
          stateLock.unlock();
          throw e;
        }
      }
      stateLock.unlock();
    }
  }

  // Waits for a record's sync; if the sync failed, the records it lost are dropped.
  private void awaitDurable(long seq) {
    if (seq == 0) {
      return;
    }
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

  // Throws if closed; after a failed sync, first forgets what it lost. Holds the state lock.
  private void ensureReadable() {
    ensureOpen();
    if (log.failed()) {
      index.forgetAbove(log.durableSeq());
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new KeyStoreException("key store " + file + " is closed");
    }
    if (log.replaced()) {
      log.checkUsable(); // throws: the log was replaced behind the store
    }
  }

  /**
   * What a store holds and did since it was opened.
   *
   * @param intents the intents the store holds (pending and completed, expired or not)
   * @param pendingIntents how many of them are pending
   * @param logBytes the size of the log's records, without space preallocated after them
   * @param liveBytes how many of those bytes a compaction would keep
   * @param appends records appended since the store was opened
   * @param syncs syncs of appended records since the store was opened
   * @param compactions compactions since the store was opened
   */
  public record Stats(
      long intents,
      long pendingIntents,
      long logBytes,
      long liveBytes,
      long appends,
      long syncs,
      long compactions) {}

  /** What the store holds and did since it was opened, read at one instant. */
  public Stats stats() {
    stateLock.lock();
    try {
      return new Stats(
          index.size(),
          index.pendingCount(),
          log.end(),
          index.liveBytes(),
          log.appendCount(),
          log.syncCount(),
          jobs.compactions());
    } finally {
      stateLock.unlock();
    }
  }

  /** Waits until no background work (preallocation, compaction) is queued or running. */
  public void awaitBackgroundWork() {
    jobs.maintenance().awaitIdle();
  }

  /** Stops background work, syncs outstanding completions, closes the files, releases the lock. */
  @Override
  public void close() {
    Maintenance maintenance = jobs.maintenance();
    maintenance.close();
    maintenance.jobs().lock();
    try {
      stateLock.lock();
      try {
        if (!closed) {
          closed = true;
          closeFiles();
        }
      } finally {
        stateLock.unlock();
      }
    } finally {
      maintenance.jobs().unlock();
    }
  }

  private void closeFiles() {
    try {
      if (log.failed()) {
        // leave a clean file behind: without the records whose sync failed, which were refused
        jobs.rewriteAfterFailure();
      }
      log.syncAll();
    } catch (KeyStoreException e) {
      if (!log.replaced()) { // if it was replaced, that was reported, and nothing is written
        LOG.warn("Could not sync the last completions to {}; they will be replayed safely", file);
      }
    } finally {
      log.close();
      dirLock.close();
    }
  }
}
