package dev.saferetry.internal.filestore.compaction;

import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.file.StoreFiles;
import dev.saferetry.internal.filestore.index.IntentIndex;
import dev.saferetry.internal.filestore.log.FrameBuffer;
import dev.saferetry.internal.filestore.log.GroupCommitLog;
import dev.saferetry.internal.filestore.log.HighWaterMark;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.LogFrames;
import dev.saferetry.internal.filestore.log.LogReader;
import dev.saferetry.internal.filestore.log.PayloadReader;
import dev.saferetry.internal.filestore.record.RecordCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Rewrites the log with only the latest record of every live intent, under a new generation, while
 * callers keep working. The new file ({@code intents.log.compact}, locked) gets every scope first,
 * then the records that are still the latest of their intent at the moment they are looked at —
 * copied byte for byte, since scope numbers do not change — then everything appended meanwhile,
 * unchanged, in rounds. Only the last round holds the store's lock: it copies the last records,
 * writes a seal naming the generation replaced, makes the file durable with one sync, renames it
 * over the log and switches the index to it (each record's new place was noted as it was copied, so
 * the switch swaps arrays). A crash before the seal is synced leaves the old log in force; after
 * it, opening finds the sealed file, complete, and finishes the rename.
 *
 * <p>The same procedure, holding the lock throughout, rewrites a log whose sync failed; a purge
 * also drops completed intents expired at its instant. One run per instance; not thread-safe.
 */
public final class Compaction {
  /** The file a compaction writes, renamed over the log once it is sealed. */
  static final String FILE = LogFormat.LOG_FILE + ".compact";

  /** Steps of a run: the latest records copied; what was appended meanwhile copied and synced. */
  static final String COPIED = "copied";

  static final String CAUGHT_UP = "caught-up";

  /** Steps of a run, under the lock: the sealed file synced; installed as the log. */
  static final String SEALED = "sealed";

  static final String INSTALLED = "installed";

  // Below this many bytes appended meanwhile, the last round runs under the lock.
  private static final int LAST_ROUND_BYTES = 64 * 1024;

  private static final int MAX_ROUNDS = 8;

  private final Path dir;
  private final ReentrantLock stateLock;
  private final IntentIndex index;
  private final GroupCommitLog log;
  private final LogFrames frames;
  private final Instant purgeAt;
  private final boolean recovering;
  private final BooleanSupplier stop;
  private final Consumer<String> steps;
  private final Path temp;
  private final long generation = LogFormat.newGeneration();
  private final CopyBatch batch;
  private FileChannel out;
  private long copiedTo;
  private int dropped;

  /**
   * @param purgeAt drop completed intents expired at this instant; null to drop nothing live
   * @param recovering whether the log failed a write or sync and is rewritten to recover (the
   *     caller then holds the lock throughout); otherwise a failure meanwhile gives the run up
   * @param stop tells a run to give up (the store closes)
   * @param steps told each step reached ({@link #COPIED}, {@link #CAUGHT_UP}, {@link #SEALED},
   *     {@link #INSTALLED}), for tests that stop a compaction there
   */
  public Compaction(
      Path dir,
      ReentrantLock stateLock,
      IntentIndex index,
      GroupCommitLog log,
      LogFrames frames,
      Instant purgeAt,
      boolean recovering,
      BooleanSupplier stop,
      Consumer<String> steps) {
    this.dir = dir;
    this.stateLock = stateLock;
    this.index = index;
    this.log = log;
    this.frames = frames;
    this.purgeAt = purgeAt;
    this.recovering = recovering;
    this.stop = stop;
    this.steps = steps;
    this.temp = dir.resolve(FILE);
    this.batch = new CopyBatch(stateLock, index, purgeAt);
  }

  /**
   * Compacts the log and installs the result.
   *
   * @return how many expired completed intents were dropped
   * @throws IOException if writing the new file failed; the log in use is intact
   * @throws KeyStoreException if the run was given up, or the log failed meanwhile
   */
  public int run() throws IOException {
    long oldGeneration;
    List<IntentScope> scopes;
    long snapshot;
    byte[] unsynced;
    stateLock.lock();
    try {
      checkGoOn();
      oldGeneration = log.generation();
      scopes = index.scopes().list();
      snapshot = log.end();
      long synced = Math.min(snapshot, log.durableEnd());
      unsynced = frames.copy(synced, snapshot);
      index.table().startPlacing();
      copiedTo = synced;
    } finally {
      stateLock.unlock();
    }
    try {
      open(scopes);
      copyLatest(copiedTo);
      copy(unsynced, copiedTo, false);
      copiedTo = snapshot;
      steps.accept(COPIED);
      catchUp();
      steps.accept(CAUGHT_UP);
      return finish(oldGeneration);
    } catch (IOException | RuntimeException e) {
      abandon();
      throw e;
    }
  }

  private void open(List<IntentScope> scopes) throws IOException {
    Files.deleteIfExists(temp);
    out = StoreFiles.openLocked(temp, true, "compaction file " + temp);
    FrameBuffer head = new FrameBuffer();
    head.putBytes(LogFormat.header(generation).array(), 0, LogFormat.HEADER_SIZE);
    for (int id = 0; id < scopes.size(); id++) {
      RecordCodec.scope(head, id, scopes.get(id));
    }
    batch.startAt(out, head);
  }

  // Copies the latest records among the synced ones of the old log, through a window.
  private void copyLatest(long synced) throws IOException {
    LogReader reader = new LogReader(log.file(), log.channel(), synced, LogReader.WINDOW);
    long pos = LogFormat.HEADER_SIZE;
    while (pos < synced) {
      PayloadReader frame = reader.frameAt(pos);
      int length = frame.remaining();
      int at = frame.position() - LogFormat.FRAME_HEADER_SIZE;
      batch.offer(reader.window(), at, LogFormat.FRAME_HEADER_SIZE + length, pos, false);
      pos += LogFormat.FRAME_HEADER_SIZE + length;
      if (batch.full()) {
        checkGoOn();
        dropped += batch.decide();
      }
    }
    dropped += batch.decide();
  }

  // Copies the records of bytes, which were at base in the old log: only the latest ones, or (for
  // what was appended meanwhile) all, noting the new places of the latest ones.
  private void copy(byte[] bytes, long base, boolean all) throws IOException {
    int at = 0;
    while (at < bytes.length) {
      int length = LogFormat.validFrameLength(bytes, at, bytes.length);
      if (length < 0) {
        throw LogFormat.corrupt(log.file(), base + at, "a record appended is not valid");
      }
      int frame = LogFormat.FRAME_HEADER_SIZE + length;
      batch.offer(bytes, at, frame, base + at, all);
      at += frame;
      if (batch.full()) {
        dropped += batch.decide();
      }
    }
    dropped += batch.decide();
  }

  // Copies what was appended meanwhile, in rounds, until little is left; syncs what it copied.
  private void catchUp() throws IOException {
    for (int round = 0; round < MAX_ROUNDS; round++) {
      long end;
      stateLock.lock();
      try {
        checkGoOn();
        end = log.end();
      } finally {
        stateLock.unlock();
      }
      if (end - copiedTo < LAST_ROUND_BYTES) {
        break;
      }
      copy(frames.copy(copiedTo, end), copiedTo, true);
      copiedTo = end;
    }
    batch.flush();
    out.force(false); // the bulk is durable before the lock is taken
  }

  // The last round, under the lock: copy, seal, one sync, rename, switch.
  private int finish(long oldGeneration) throws IOException {
    long size;
    stateLock.lock();
    try {
      checkGoOn();
      long end = log.end();
      copy(frames.copy(copiedTo, end), copiedTo, true);
      batch.seal(oldGeneration);
      batch.flush();
      out.force(false);
      steps.accept(SEALED);
      if (!index.table().allPlaced()) {
        throw new IllegalStateException("a live record was not copied into the compacted file");
      }
      Path logFile = dir.resolve(LogFormat.LOG_FILE);
      size = batch.end();
      // renamed with syncs held off, after a check that the log was not replaced behind the store
      log.install(
          new GroupCommitLog.Replacement(logFile, out, generation, size),
          () -> Files.move(temp, logFile, StandardCopyOption.ATOMIC_MOVE));
      index.table().commitPlaces();
      out = null;
      steps.accept(INSTALLED);
    } finally {
      stateLock.unlock();
    }
    afterInstall(size);
    return dropped;
  }

  // Makes the rename and the new generation durable; both are also recoverable without.
  private void afterInstall(long size) {
    StoreFiles.forceDirectory(dir);
    try {
      log.mark().writeDurably(new HighWaterMark.Value(generation, size, 0));
    } catch (IOException e) {
      // the seal vouches for the new file until the mark catches up after the next sync
    }
  }

  private void checkGoOn() {
    if (stop.getAsBoolean()) {
      throw new KeyStoreException("compaction of " + log.file() + " given up: the store closes");
    }
    if (log.replaced()) {
      log.checkUsable(); // the log was replaced behind the store: nothing more is written
    }
    if (log.failed() && !recovering) {
      throw new KeyStoreException("compaction of " + log.file() + " given up: the log failed");
    }
  }

  private void abandon() {
    stateLock.lock();
    try {
      index.table().stopPlacing();
    } finally {
      stateLock.unlock();
    }
    StoreFiles.closeQuietly(out);
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      // removed on the next open
    }
  }
}
