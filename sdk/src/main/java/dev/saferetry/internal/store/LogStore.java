package dev.saferetry.internal.store;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * <p>Thread-safe.
 */
public final class LogStore implements KeyStore {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);

  /** Below this size a log is read fast enough that rewriting it on open is not worth it. */
  static final long AUTO_COMPACT_BYTES = 1024 * 1024;

  private record Id(IntentScope scope, String intentId) {}

  /** A record and the sequence number of the begin record that must be durable before use. */
  private record Entry(IntentRecord record, long beginSeq) {}

  private final Path dir;
  private final Path file;
  private final DirectoryLock dirLock;
  private final GroupCommitLog log;
  private final ReentrantLock stateLock = new ReentrantLock();
  // insertion order breaks ties in pending(): equal creation times list in log order
  private final Map<Id, Entry> index = new LinkedHashMap<>();
  private boolean closed;

  private LogStore(Path dir, DirectoryLock dirLock, GroupCommitLog log) {
    this.dir = dir;
    this.file = dir.resolve(LogFormat.LOG_FILE);
    this.dirLock = dirLock;
    this.log = log;
  }

  /**
   * Opens (creating if needed) the store in an existing directory, locking it for this store's
   * lifetime.
   *
   * @param groupCommitWindowNanos how long a sync leader waits for more records to join
   * @throws KeyStoreException if the directory or file is unusable, damaged or locked
   */
  public static LogStore open(Path dir, long groupCommitWindowNanos) {
    Objects.requireNonNull(dir, "dir");
    StoreFiles.checkDirectory(dir);
    DirectoryLock lock = DirectoryLock.acquire(dir);
    try {
      LogOpener.Opened opened = LogOpener.open(dir);
      GroupCommitLog log =
          new GroupCommitLog(opened.file(), opened.channel(), groupCommitWindowNanos);
      LogStore store = new LogStore(dir, lock, log);
      opened.entries().forEach(entry -> store.apply(entry, 0));
      store.compactIfMostlySuperseded(opened);
      return store;
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Rewrites a large log on open when most of its records are superseded (completed, replaced or
   * abandoned intents). Drops nothing that is live, expired or not: only {@link #purgeExpired}
   * decides what has expired, with the caller's clock.
   */
  private void compactIfMostlySuperseded(LogOpener.Opened opened) {
    int live = index.size();
    int records = opened.entries().size();
    if (opened.size() >= AUTO_COMPACT_BYTES && records > 2 * live) {
      purgeExpired(Instant.MIN);
      LOG.info("Compacted key store file {} on open: {} records, {} intents", file, records, live);
    }
  }

  @Override
  public BeginResult begin(IntentRecord candidate) {
    if (candidate.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a candidate must be PENDING");
    }
    Entry result;
    boolean created;
    stateLock.lock();
    try {
      ensureOpen();
      Entry existing = index.get(new Id(candidate.scope(), candidate.intentId()));
      created = existing == null || replaceable(existing.record(), candidate.createdAt());
      if (created) {
        long seq = append(new LogEntry.Begin(candidate));
        result = new Entry(candidate, seq);
      } else {
        result = existing;
      }
    } finally {
      stateLock.unlock();
    }
    // An existing record may still wait for its sync: nobody may use its key before it is durable.
    log.awaitDurable(result.beginSeq());
    return created ? BeginResult.created(result.record()) : BeginResult.existing(result.record());
  }

  private static boolean replaceable(IntentRecord existing, Instant now) {
    return existing.state() != IntentState.PENDING && existing.isExpired(now);
  }

  @Override
  public void complete(IntentRecord completed) {
    if (completed.state() == IntentState.PENDING) {
      throw new IllegalArgumentException("a completion must be SUCCEEDED or FAILED");
    }
    stateLock.lock();
    try {
      ensureOpen();
      Entry existing = index.get(new Id(completed.scope(), completed.intentId()));
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
      ensureOpen();
      Entry entry = index.get(new Id(scope, intentId));
      return Optional.ofNullable(entry).map(Entry::record);
    } finally {
      stateLock.unlock();
    }
  }

  @Override
  public List<IntentRecord> pending() {
    List<IntentRecord> result = new ArrayList<>();
    stateLock.lock();
    try {
      ensureOpen();
      for (Entry entry : index.values()) {
        if (entry.record().state() == IntentState.PENDING) {
          result.add(entry.record());
        }
      }
    } finally {
      stateLock.unlock();
    }
    result.sort(Comparator.comparing(IntentRecord::createdAt));
    return result;
  }

  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    long seq;
    stateLock.lock();
    try {
      ensureOpen();
      if (!index.containsKey(new Id(scope, intentId))) {
        return false;
      }
      seq = append(new LogEntry.Abandon(scope, intentId));
    } finally {
      stateLock.unlock();
    }
    log.awaitDurable(seq);
    return true;
  }

  @Override
  public int purgeExpired(Instant now) {
    stateLock.lock();
    try {
      ensureOpen();
      log.ensureUsable(); // never rebuild a file from an index that may hold unsynced records
      List<Id> expired = new ArrayList<>();
      List<IntentRecord> live = new ArrayList<>();
      index.forEach(
          (id, entry) -> {
            if (replaceable(entry.record(), now)) {
              expired.add(id);
            } else {
              live.add(entry.record());
            }
          });
      live.sort(Comparator.comparing(IntentRecord::createdAt));
      FileChannel channel;
      try {
        channel = Compactor.rewrite(dir, live);
      } catch (IOException e) {
        throw new KeyStoreException("cannot compact key store file " + file + "; it is intact", e);
      }
      log.switchTo(file, channel);
      expired.forEach(index::remove);
      return expired.size();
    } finally {
      stateLock.unlock();
    }
  }

  /** Appends an entry and applies it to the index; the caller holds the state lock. */
  private long append(LogEntry entry) {
    long seq = log.append(LogFormat.frame(RecordCodec.encode(entry)));
    apply(entry, seq);
    return seq;
  }

  private void apply(LogEntry entry, long seq) {
    Id id = new Id(entry.scope(), entry.intentId());
    if (entry instanceof LogEntry.Begin begin) {
      index.put(id, new Entry(begin.record(), seq));
    } else if (entry instanceof LogEntry.Complete c) {
      Entry existing = index.get(id);
      if (existing != null && existing.record().key().equals(c.key())) {
        IntentRecord done = existing.record().complete(c.state(), c.status(), c.resourceId());
        index.put(id, new Entry(done, existing.beginSeq()));
      }
    } else {
      index.remove(id);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new KeyStoreException("key store " + file + " is closed");
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
      log.syncAll();
    } catch (KeyStoreException e) {
      LOG.warn("Could not sync the last completions to {}; they will be replayed safely", file);
    } finally {
      log.close();
      dirLock.close();
    }
  }
}
