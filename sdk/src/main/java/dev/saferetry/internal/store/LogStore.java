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
import java.util.function.Consumer;
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

  /** Below this size a log is not compacted in the background: it costs little to read. */
  public static final long AUTO_COMPACT_BYTES = 1024 * 1024;

  /**
   * Internal options.
   *
   * @param groupCommitWindowNanos how long a sync leader waits for more records to join
   * @param preallocate whether to preallocate the log ahead of its records
   * @param autoCompactBytes the size from which a mostly superseded log is compacted in the
   *     background; {@link Long#MAX_VALUE} never
   * @param compactionSteps told each step a compaction reaches ("copied", "caught-up", "sealed",
   *     "installed"), in the compacting thread: for tests that stop a compaction there
   */
  public record Options(
      long groupCommitWindowNanos,
      boolean preallocate,
      long autoCompactBytes,
      Consumer<String> compactionSteps) {
    /** Options without a listener of compaction steps. */
    public Options(long groupCommitWindowNanos, boolean preallocate, long autoCompactBytes) {
      this(groupCommitWindowNanos, preallocate, autoCompactBytes, step -> {});
    }

    /** The options of {@link dev.saferetry.idempotency.FileKeyStore} with a given window. */
    public static Options withWindow(long groupCommitWindowNanos) {
      return new Options(groupCommitWindowNanos, true, AUTO_COMPACT_BYTES);
    }
  }

  private final Path dir;
  private final Path file;
  private final DirectoryLock dirLock;
  private final GroupCommitLog log;
  private final IntentIndex index;
  private final Options options;
  private final ReentrantLock stateLock = new ReentrantLock();
  private final Maintenance maintenance = new Maintenance();
  private final FrameBuffer buffer = new FrameBuffer();
  private volatile boolean closed;
  private boolean compactionQueued;
  private long nextCompactionAt;
  private volatile long compactions;

  private LogStore(
      Path dir, DirectoryLock dirLock, GroupCommitLog log, IntentIndex index, Options options) {
    this.dir = dir;
    this.file = dir.resolve(LogFormat.LOG_FILE);
    this.dirLock = dirLock;
    this.log = log;
    this.index = index;
    this.options = options;
    index.readFrom(log);
  }

  /** Opens the store with the file key store's defaults and a group-commit window. */
  public static LogStore open(Path dir, long groupCommitWindowNanos) {
    return open(dir, Options.withWindow(groupCommitWindowNanos));
  }

  /**
   * Opens (creating if needed) the store in an existing directory, locking it for this store's
   * lifetime. A failed open releases everything it opened.
   *
   * @throws KeyStoreException if the directory or file is unusable, damaged or locked
   */
  public static LogStore open(Path dir, Options options) {
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
      log.space.start(opened.allocated(), options.preallocate());
      if (log.space.shouldExtend()) {
        log.space.extend(); // before the first record, so that it already overwrites zeros
      }
      LogStore store = new LogStore(dir, lock, log, opened.index(), options);
      store.afterChange(store.compactionDue());
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
        seq = existing.isPending() ? existing.pending().beginSeq() : 0;
        result = existing.record();
      }
      compact = compactionDue();
    } finally {
      stateLock.unlock();
    }
    afterChange(compact);
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
      CompactCodec.scope(buffer, scopeId, record.scope());
    }
    int at = buffer.length();
    CompactCodec.begin(buffer, scopeId, record);
    long start = log.end();
    long seq = log.append(buffer);
    if (newScope) {
      scopes.define(scopeId, record.scope());
    }
    index.addPending(replaced, scopeId, record, start + at, buffer.length() - at, seq);
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
        if (existing.isPending() && existing.pending().beginSeq() > log.durableSeq()) {
          beginToAwait = existing.pending().beginSeq(); // complete only what is durably begun
        } else {
          long seq = appendCompletion(existing, completed);
          syncToAwait = log.unsyncedBytes() > GroupCommitLog.UNSYNCED_LIMIT ? seq : 0;
        }
        compact = compactionDue();
      } finally {
        stateLock.unlock();
      }
      if (beginToAwait == 0) {
        afterChange(compact);
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
    CompactCodec.complete(buffer, existing.scopeId(), done);
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
      CompactCodec.abandon(buffer, existing.scopeId(), intentId);
      seq = log.append(buffer);
      index.remove(existing);
      compact = compactionDue();
    } finally {
      stateLock.unlock();
    }
    afterChange(compact);
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
    maintenance.jobs().lock();
    try {
      recoverIfFailed();
      int dropped = compact(now);
      LOG.debug("Purged {} expired intents from key store file {}", dropped, file);
      return dropped;
    } catch (IOException e) {
      throw new KeyStoreException("cannot compact key store file " + file + "; it is intact", e);
    } finally {
      maintenance.jobs().unlock();
    }
  }

  private int compact(Instant purgeAt) throws IOException {
    ensureOpen();
    int dropped =
        new Compaction(
                dir,
                stateLock,
                index,
                log,
                purgeAt,
                false,
                maintenance::closing,
                options.compactionSteps())
            .run();
    compactions++;
    afterChange(false);
    return dropped;
  }

  /** Whether a background compaction is due: a large log, mostly superseded. Holds the lock. */
  private boolean compactionDue() {
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
  private void afterChange(boolean compact) {
    if (log.space.shouldExtend()) {
      maintenance.submit(log.space::extend);
    }
    if (compact) {
      maintenance.submit(this::compactInBackground);
    }
  }

  private void compactInBackground() {
    try {
      if (!log.failed()) {
        compact(null);
        LOG.debug("Compacted key store file {} in the background", file);
      }
    } catch (IOException | KeyStoreException e) {
      if (!maintenance.closing()) {
        LOG.warn("Could not compact key store file {} ({}); using it as it is", file, e.toString());
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
   * Takes the state lock with the log writable: after a failed write or sync, first rewrites it
   * (with the maintenance lock, which comes first).
   */
  private void lockWritable() {
    while (true) {
      recoverIfFailed();
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

  private void recoverIfFailed() {
    if (!log.failed()) {
      return;
    }
    maintenance.jobs().lock();
    stateLock.lock();
    try {
      ensureReadable();
      if (log.failed()) {
        rewriteAfterFailure();
      }
    } finally {
      stateLock.unlock();
      maintenance.jobs().unlock();
    }
  }

  /** Rewrites a failed log; holds both locks. */
  private void rewriteAfterFailure() {
    index.forgetAbove(log.durableSeq());
    try {
      new Compaction(dir, stateLock, index, log, null, true, () -> false, step -> {}).run();
      LOG.warn("Rewrote key store file {} after a failed write or sync; it is usable again", file);
    } catch (IOException | RuntimeException e) {
      throw new KeyStoreException(
          "key store file "
              + file
              + " failed a write or sync, and rewriting it failed too ("
              + e.getMessage()
              + "); the next call tries again",
          e);
    }
  }

  /** Waits for a record's sync; if the sync failed, the records it lost are dropped. */
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

  /** Throws if closed; after a failed sync, first forgets what it lost. Holds the state lock. */
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
  }

  /** What the store holds and did since it was opened. */
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
          compactions);
    } finally {
      stateLock.unlock();
    }
  }

  /**
   * Figures of a store.
   *
   * @param intents live intents
   * @param pending pending intents among them
   * @param logBytes the end of the log's records
   * @param liveBytes the bytes of the latest records (what a compaction keeps)
   * @param appends records appended since opened
   * @param syncs syncs of appended records since opened
   * @param compactions compactions since opened
   */
  public record Stats(
      long intents,
      long pending,
      long logBytes,
      long liveBytes,
      long appends,
      long syncs,
      long compactions) {}

  /** How many fsyncs of appended records the store performed since it was opened. */
  public long syncCount() {
    return log.syncCount();
  }

  /** How many records the store appended since it was opened. */
  public long appendCount() {
    return log.appendCount();
  }

  /** Waits until no background work (preallocation, compaction) is queued or running. */
  public void awaitBackgroundWork() {
    maintenance.awaitIdle();
  }

  /** Stops background work, syncs outstanding completions, closes the files, releases the lock. */
  @Override
  public void close() {
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
        rewriteAfterFailure();
      }
      log.syncAll();
    } catch (KeyStoreException e) {
      LOG.warn("Could not sync the last completions to {}; they will be replayed safely", file);
    } finally {
      log.close();
      dirLock.close();
    }
  }
}
