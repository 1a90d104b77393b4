package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive lock on a store directory, held for the store's lifetime through an OS file lock on
 * {@code saferetry.lock}. Locks within this JVM are tracked separately: POSIX record locks are per
 * process, and closing any descriptor of the lock file would silently drop the lock.
 *
 * <p>Thread-safe.
 */
final class DirectoryLock implements AutoCloseable {
  private static final Set<Path> HELD_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path key;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Path key, FileChannel channel, FileLock lock) {
    this.key = key;
    this.channel = channel;
    this.lock = lock;
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
    if (!HELD_IN_THIS_JVM.add(key)) {
      throw locked(dir);
    }
    Path file = dir.resolve(LogFormat.LOCK_FILE);
    FileChannel channel = null;
    try {
      channel = StoreFiles.open(file, true);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw locked(dir);
      }
      return new DirectoryLock(key, channel, lock);
    } catch (IOException | RuntimeException e) {
      HELD_IN_THIS_JVM.remove(key);
      closeQuietly(channel);
      if (e instanceof KeyStoreException kse) {
        throw kse;
      }
      if (e instanceof OverlappingFileLockException) {
        throw locked(dir);
      }
      throw new KeyStoreException("cannot lock store directory " + dir + " (" + e + ")", e);
    }
  }

  private static KeyStoreException locked(Path dir) {
    return new KeyStoreException(
        "store directory "
            + dir
            + " is locked by another process (or is already open in this one); "
            + "a store directory can be used by one process at a time");
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // closing the channel below releases it too
    } finally {
      closeQuietly(channel);
      HELD_IN_THIS_JVM.remove(key);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing was written through it
      }
    }
  }
}
