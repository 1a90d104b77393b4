package dev.saferetry.filestore;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.LogStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link KeyStore} in a local directory, so that an intent keeps its idempotency key across a
 * crash and restart of the process: the record of a new intent is on disk (fsync'd) before {@link
 * #begin} returns, and therefore before the client sends the first byte.
 *
 * <pre>{@code
 * Path dir = Path.of("/var/lib/myapp/saferetry"); // must exist, owned by this user, mode 700
 * try (FileKeyStore store = FileKeyStore.open(dir)) {
 *   SafeRetryClient client = SafeRetryClient.builder().keyStore(store)...build();
 *   for (IntentRecord r : client.pendingIntents()) { ... re-drive or reconcile ... }
 * }
 * }</pre>
 *
 * <p><b>Files.</b> The directory holds {@code intents.log} (an append-only log: a header with a
 * format version and the file's generation, then records framed with their length and a CRC32C),
 * {@code intents.mark} (the high-water mark: the log's generation, how many of its bytes were
 * synced and how far it was preallocated), {@code saferetry.lock}, {@code saferetry.owner} (the pid
 * and start time of the process using the store; empty when none does) and, while a compaction
 * runs, {@code intents.log.compact}. Files are created readable and writable by their owner only; a
 * symbolic link in place of the directory or a file is refused.
 *
 * <p><b>Access.</b> On file systems with POSIX permissions, the directory and its files must belong
 * to the user running the store, and no other user may write them: otherwise opening fails, and
 * nothing is changed (others could have removed or replaced records). A store file that others may
 * only read is made owner-only, with a warning.
 *
 * <p><b>Durability.</b> {@link #begin} and {@link #abandon} return after an fsync that covers their
 * record — one {@code fdatasync}, shared by concurrent callers (group commit: the first waiting
 * caller syncs for everyone who appended); the high-water mark is updated after it without a second
 * sync. The log is preallocated ahead of its records in the background, so that this sync does not
 * also have to write the file's size. {@link #complete} only appends: a completion lost in a crash
 * leaves the intent pending, which is safe (the retry reuses the key and the server replays).
 * {@link #close()} syncs outstanding completions and cuts the unused preallocated space.
 *
 * <p><b>Damage.</b> On open, an incomplete record at the very end of the log, written after the
 * last sync the mark vouches for, is a write torn by a crash: its bytes are saved to {@code
 * intents.log.torn-<offset>} and cut off, with a warning. Zeros in the space the mark says was
 * preallocated are space not yet written. Anything else — a complete record with a bad checksum,
 * more trailing bytes than one record, zeros beyond the preallocated space, a log shorter than the
 * mark, an emptied, deleted or replaced log, a missing mark, an unknown format version — is a
 * {@link KeyStoreException} naming the file and byte offset, and every file is left exactly as it
 * was.
 *
 * <p><b>Full disk.</b> A record that cannot be written or synced fails its call; nothing already
 * acknowledged is lost. A failed sync may have lost everything written since the previous one, so
 * the next call first rewrites the log into a new file, from its synced part and the records kept
 * in memory since; once space returns, the store works again without a reopen.
 *
 * <p><b>One process at a time.</b> The store locks {@code saferetry.lock} and the log itself for
 * its lifetime, so deleting the lock file lets no other process in; opening a locked directory —
 * from another process or a second time in this one — fails with a {@link KeyStoreException}. It
 * also records its process in {@code saferetry.owner}: a second process that finds nothing locked
 * (the lock file deleted and the log replaced by a copy, a new file) still finds a live owner, and
 * refuses. At every group sync the store checks that the log's path still names the file it has
 * open (a {@code stat} before and after it moves the mark); if another file took its place, the
 * store refuses all further work with a {@link KeyStoreException}: it acknowledges no record
 * written to a file nobody reads, moves no mark and renames nothing over the copy.
 *
 * <p><b>Memory and space.</b> The store keeps pending intents in memory and, for a completed one,
 * only where its record is in the log (a few dozen bytes): a completed intent asked for again is
 * read back from the file. Opening reads the log once, sequentially. In the background, the store
 * compacts a log of more than 1 MiB once most of its bytes are superseded records, holding other
 * callers up for one sync at most; {@link #purgeExpired} does the same in the caller's thread and
 * also drops completed records past their expiry: call it periodically (for example hourly, with
 * the client's clock). If a compaction fails (a full disk), the log in use is intact.
 *
 * <p><b>Time: the host's clock only.</b> Every expiry is judged at the times the client gives (its
 * clock, see {@code SafeRetryClientBuilder.intentRetention}): a clock stepped ahead by more than
 * the retention lets a completed intent be recorded again with a new key and purges it early; a
 * clock stepped behind keeps completed intents longer, and never makes an expired pending intent
 * look fresh (see {@link #expiryTime}). Keep the host's clock synchronised; for instances sharing
 * intents, or a host whose clock cannot be trusted, use the JDBC store, which judges at the
 * database's clock.
 *
 * <p>This class is thread-safe.
 */
public final class FileKeyStore implements KeyStore {
  private final LogStore store;

  private FileKeyStore(LogStore store) {
    this.store = store;
  }

  /**
   * Opens the store in {@code directory} with default options, creating its files if needed.
   *
   * @param directory an existing directory owned by this user, writable by nobody else, used by
   *     this store only
   * @return the open store
   * @throws KeyStoreException if the directory is missing, not writable, writable by others, owned
   *     by another user, a symbolic link, locked by another process, or holds a damaged, truncated,
   *     replaced or unknown-version log
   */
  public static FileKeyStore open(Path directory) {
    return open(directory, Duration.ZERO);
  }

  /**
   * Opens the store in {@code directory} as {@link #open(Path)} does, with a group commit window:
   * how long the caller that performs a shared fsync waits first for more concurrent records to
   * join it. {@link #open(Path)} uses {@link Duration#ZERO}: records that arrive while an fsync
   * runs already share the next one, which is enough batching for most loads; a small window (a few
   * hundred microseconds) trades single-caller latency for fewer fsyncs under heavy concurrency.
   *
   * @param directory an existing directory owned by this user, writable by nobody else, used by
   *     this store only
   * @param groupCommitWindow the window: between zero and one second
   * @return the open store
   * @throws IllegalArgumentException if the window is negative or longer than one second
   * @throws KeyStoreException as {@link #open(Path)}
   */
  public static FileKeyStore open(Path directory, Duration groupCommitWindow) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(groupCommitWindow, "groupCommitWindow");
    if (groupCommitWindow.isNegative() || groupCommitWindow.compareTo(Duration.ofSeconds(1)) > 0) {
      throw new IllegalArgumentException("groupCommitWindow must be between 0 and 1 s");
    }
    return new FileKeyStore(LogStore.open(directory, groupCommitWindow.toNanos()));
  }

  @Override
  public BeginResult begin(IntentRecord candidate) {
    return store.begin(candidate);
  }

  @Override
  public void complete(IntentRecord completed) {
    store.complete(completed);
  }

  @Override
  public Optional<IntentRecord> find(IntentScope scope, String intentId) {
    return store.find(scope, intentId);
  }

  @Override
  public List<IntentRecord> pending() {
    return store.pending();
  }

  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    return store.abandon(scope, intentId);
  }

  /**
   * Returns the later of {@code clock} and the latest creation time this store has recorded. The
   * floor is read from the log when the store opens and kept through compactions, so a clock
   * stepped back across a restart cannot make an expired pending intent look fresh.
   */
  @Override
  public Instant expiryTime(Instant clock) {
    return store.expiryTime(clock);
  }

  /**
   * Drops completed records expired at {@code now}, then compacts the log: the live records are
   * copied to a new file while other calls go on; the records appended meanwhile follow, and the
   * new file is sealed, synced and atomically renamed over the old one, holding other calls up for
   * that one sync. If it fails (a full disk), the log in use is intact.
   */
  @Override
  public int purgeExpired(Instant now) {
    return store.purgeExpired(now);
  }

  /**
   * {@return the intents this store holds: pending and completed, expired or not} For monitoring;
   * reading it costs a brief hold of the store's lock, as for every figure below.
   */
  public long intentCount() {
    return store.stats().intents();
  }

  /** {@return how many of the intents this store holds are pending} */
  public long pendingCount() {
    return store.stats().pendingIntents();
  }

  /** {@return the size of the log's records, without space preallocated after them} */
  public long logBytes() {
    return store.stats().logBytes();
  }

  /** {@return how many of the log's {@linkplain #logBytes() bytes} a compaction would keep} */
  public long liveBytes() {
    return store.stats().liveBytes();
  }

  /** {@return the records appended to the log since this store was opened} */
  public long appendCount() {
    return store.stats().appends();
  }

  /**
   * {@return the syncs of appended records since this store was opened} With concurrent callers,
   * fewer than the durable records, which share them.
   */
  public long syncCount() {
    return store.stats().syncs();
  }

  /**
   * {@return the compactions since this store was opened, in the background or by {@link
   * #purgeExpired}}
   */
  public long compactionCount() {
    return store.stats().compactions();
  }

  /** Syncs outstanding completions, closes the log and releases the directory lock. */
  @Override
  public void close() {
    store.close();
  }
}
