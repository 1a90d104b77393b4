package dev.saferetry.internal.filestore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.file.StoreFiles;
import dev.saferetry.internal.filestore.log.GroupCommitLog;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lock on a store directory through an OS file lock on {@code saferetry.lock}, held for the
 * store's lifetime. It keeps out other processes (including older versions of the SDK, which lock
 * only this file) and, through a registry, other stores in this JVM: POSIX record locks are per
 * process, and closing any descriptor of a locked file would silently drop the lock.
 *
 * <p>An operator can delete this file while it is locked, and the next process would then lock a
 * new one. So it is not the only guard: the store also locks the log itself, whose deletion the
 * high-water mark reports; records its owner ({@link OwnerRecord}), which a second opener finds
 * even when the log was also replaced by an unlocked copy; and checks at every group sync that the
 * log's path still names its open file ({@link GroupCommitLog}).
 *
 * <p>Thread-safe.
 */
final class DirectoryLock implements AutoCloseable {
  static final String FILE = "saferetry.lock";

  private static final Set<Path> HELD_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path dir;
  private final Path key;
  private final FileChannel channel;

  private DirectoryLock(Path dir, Path key, FileChannel channel) {
    this.dir = dir;
    this.key = key;
    this.channel = channel;
  }

  /**
   * Takes the lock without waiting.
   *
   * @throws KeyStoreException if another process, or another open store in this one, holds it
   */
  static DirectoryLock acquire(Path dir) {
    Path key;
    try {
      key = dir.toRealPath();
    } catch (IOException e) {
      throw new KeyStoreException("cannot resolve store directory " + dir, e);
    }
    String what = StoreFiles.lockName(dir);
    if (!HELD_IN_THIS_JVM.add(key)) {
      throw StoreFiles.locked(what);
    }
    Path file = dir.resolve(FILE);
    try {
      StoreFiles.checkExistingFile(file);
      FileChannel channel = StoreFiles.openLocked(file, true, what);
      try {
        OwnerRecord.check(dir, what); // before anything in the directory is changed
      } catch (RuntimeException e) {
        StoreFiles.closeQuietly(channel);
        throw e;
      }
      return new DirectoryLock(dir, key, channel);
    } catch (IOException | RuntimeException e) {
      HELD_IN_THIS_JVM.remove(key);
      if (e instanceof KeyStoreException kse) {
        throw kse;
      }
      throw new KeyStoreException("cannot lock store directory " + dir + " (" + e + ")", e);
    }
  }

  /** Empties the owner record and releases the lock (closing the file releases it). */
  @Override
  public void close() {
    OwnerRecord.release(dir);
    StoreFiles.closeQuietly(channel);
    HELD_IN_THIS_JVM.remove(key);
  }
}
