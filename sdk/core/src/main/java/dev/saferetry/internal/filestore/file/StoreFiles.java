package dev.saferetry.internal.filestore.file;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * File-system rules of the store: regular, owner-only files opened without following links, locked
 * opens that notice a file replaced meanwhile, directory syncs. Who may touch the files is checked
 * by {@link StoreAccess}. Stateless.
 */
public final class StoreFiles {
  private StoreFiles() {}

  /** See {@link StoreAccess#checkDirectory}. */
  public static void checkDirectory(Path dir) {
    StoreAccess.checkDirectory(dir);
  }

  /** See {@link StoreAccess#checkExistingFile}. */
  public static void checkExistingFile(Path file) {
    StoreAccess.checkExistingFile(file);
  }

  /** Whether {@code path}'s file system has POSIX permissions, which store files then get. */
  public static boolean isPosix(Path path) {
    return StoreAccess.isPosix(path);
  }

  /**
   * Opens a regular file for reading and writing without following links, creating it with
   * owner-only permissions (where the file system has POSIX permissions) if {@code create}.
   */
  public static FileChannel open(Path file, boolean create) throws IOException {
    if (Files.isSymbolicLink(file)) {
      throw new KeyStoreException("store file " + file + " is a symbolic link; refusing it");
    }
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)
        && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new KeyStoreException("store file " + file + " is not a regular file");
    }
    Set<OpenOption> options = new HashSet<>();
    options.add(StandardOpenOption.READ);
    options.add(StandardOpenOption.WRITE);
    options.add(LinkOption.NOFOLLOW_LINKS);
    if (create) {
      options.add(StandardOpenOption.CREATE);
    }
    if (create && StoreAccess.isPosix(file)) {
      FileAttribute<?> ownerOnly =
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
      return FileChannel.open(file, options, ownerOnly);
    }
    return FileChannel.open(file, options);
  }

  /**
   * Opens {@code file} and takes an exclusive lock on it without waiting, then checks that the path
   * still names the file that was locked: a lock on a file that was meanwhile replaced (renamed
   * over, or deleted and created again) protects nothing.
   *
   * @throws KeyStoreException naming {@code what} if another process holds the lock or the file
   *     changed while it was being locked
   */
  public static FileChannel openLocked(Path file, boolean create, String what) throws IOException {
    Object before = fileKey(file);
    FileChannel channel = open(file, create);
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        throw locked(what);
      }
      Object after = fileKey(file);
      if (after == null || (before != null && !before.equals(after))) {
        throw new KeyStoreException(
            what + " changed while it was being opened (another process?); retry");
      }
      return channel;
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /** How errors about locks name a store directory. */
  public static String lockName(Path dir) {
    return "store directory " + dir;
  }

  /** The error for a store file or directory ({@code what}) that another holder has locked. */
  public static KeyStoreException locked(String what) {
    return new KeyStoreException(
        what
            + " is locked by another process (or is already open in this one); "
            + "a store directory can be used by one process at a time");
  }

  /** Returns the identity (device and inode) of the file a path names now, or null if none. */
  public static Object fileKey(Path file) throws IOException {
    try {
      BasicFileAttributes attrs =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return Objects.requireNonNullElse(attrs.fileKey(), attrs.creationTime());
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Reads the whole file; a store file is bounded by compaction and must fit in memory. */
  public static byte[] readAll(FileChannel channel, Path file) throws IOException {
    long size = channel.size();
    if (size > Integer.MAX_VALUE - 16) {
      throw new KeyStoreException("key store file " + file + " is too large (" + size + " bytes)");
    }
    ByteBuffer data = ByteBuffer.allocate((int) size);
    while (data.hasRemaining()) {
      if (channel.read(data, data.position()) < 0) {
        break;
      }
    }
    return data.array();
  }

  /** Writes the whole buffer at {@code position}, leaving the channel's position alone. */
  public static void writeFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  /**
   * Syncs a directory so that a created or renamed entry survives a crash. Some platforms and file
   * systems refuse to open or sync directories; there the rename is as durable as they allow.
   */
  public static void forceDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // not supported here (e.g. Windows); nothing more can be done
    }
  }

  /**
   * Closes {@code closeable} (if not null), ignoring a failure: the first error is the one told.
   */
  public static void closeQuietly(AutoCloseable closeable) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // closing after a failure or after a final sync: the first error is the one to report
      }
    }
  }
}
