package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;

/**
 * File-system rules of the store: an existing, writable, non-symlinked directory; regular,
 * owner-only files opened without following links; directory syncs. Stateless.
 */
final class StoreFiles {
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private StoreFiles() {}

  /** Checks that the directory exists, is a real directory and may be written. */
  static void checkDirectory(Path dir) {
    if (Files.isSymbolicLink(dir)) {
      throw new KeyStoreException("store directory " + dir + " is a symbolic link; refusing it");
    }
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new KeyStoreException("store directory " + dir + " does not exist; create it first");
    }
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new KeyStoreException("store path " + dir + " is not a directory");
    }
    if (!Files.isWritable(dir) || ownerMarkedReadOnly(dir)) {
      throw new KeyStoreException("store directory " + dir + " is not writable");
    }
  }

  /**
   * Whether the directory belongs to this user and its owner-write bit is clear. The superuser's
   * writes ignore permission bits, so without this check a store run as root would write into a
   * directory its owner has deliberately made read-only.
   */
  private static boolean ownerMarkedReadOnly(Path dir) {
    if (!isPosix(dir)) {
      return false;
    }
    try {
      PosixFileAttributes attrs =
          Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      String me = System.getProperty("user.name");
      return attrs.owner().getName().equals(me)
          && !attrs.permissions().contains(PosixFilePermission.OWNER_WRITE);
    } catch (IOException | UnsupportedOperationException e) {
      return false; // cannot tell: the first write will say
    }
  }

  /**
   * Opens a regular file for reading and writing without following links, creating it with
   * owner-only permissions (where the file system has POSIX permissions) if {@code create}.
   */
  static FileChannel open(Path file, boolean create) throws IOException {
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
    if (create && isPosix(file)) {
      FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(OWNER_ONLY);
      return FileChannel.open(file, options, ownerOnly);
    }
    return FileChannel.open(file, options);
  }

  /** Reads the whole file; a store file is bounded by compaction and must fit in memory. */
  static byte[] readAll(FileChannel channel, Path file) throws IOException {
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

  static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  /**
   * Syncs a directory so that a created or renamed entry survives a crash. Some platforms and file
   * systems refuse to open or sync directories; there the rename is as durable as they allow.
   */
  static void forceDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // not supported here (e.g. Windows); nothing more can be done
    }
  }

  private static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
