package dev.saferetry.internal.filestore.file;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may touch a store, on file systems with POSIX permissions. The directory and every file of
 * the store must belong to the user running the store, and nobody else may write them: another user
 * who can write the log, or rename and create entries in the directory, could remove or replace
 * intents, and no checksum could tell. Such a store is refused with the command that fixes it,
 * never repaired silently: the operator should look at who had access first. Files that others may
 * only read are narrowed to owner-only with a warning, since reading discloses but changes nothing.
 * Stateless.
 */
final class StoreAccess {
  private static final Logger LOG = LoggerFactory.getLogger(StoreAccess.class);
  private static final Set<PosixFilePermission> WRITE_BY_OTHERS =
      EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
  private static final Set<PosixFilePermission> ACCESS_BY_OTHERS =
      EnumSet.complementOf(
          EnumSet.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));
  private static final Object CURRENT_UID = currentUid();

  private StoreAccess() {}

  /** Checks that the directory exists, is a real directory, is ours and only we may write it. */
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
    PosixFileAttributes attrs = posixAttributes(dir);
    if (attrs != null) {
      checkOwner("store directory", dir, attrs);
      if (!attrs.permissions().contains(PosixFilePermission.OWNER_WRITE)) {
        // the superuser's writes ignore permission bits: honour the owner's read-only mark anyway
        throw new KeyStoreException("store directory " + dir + " is not writable");
      }
      if (attrs.permissions().stream().anyMatch(WRITE_BY_OTHERS::contains)) {
        throw new KeyStoreException(
            "store directory "
                + dir
                + " can be written by other users (mode "
                + PosixFilePermissions.toString(attrs.permissions())
                + "), who could replace or remove its files; refusing it. Make it owner-only"
                + " (chmod 700) after checking its contents");
      }
    }
    if (!Files.isWritable(dir)) {
      throw new KeyStoreException("store directory " + dir + " is not writable");
    }
  }

  /**
   * Checks an existing store file: ours, and writable by nobody else (refused); readable by others
   * is narrowed to owner-only with a warning. Does nothing if the file does not exist.
   */
  static void checkExistingFile(Path file) {
    PosixFileAttributes attrs = posixAttributes(file);
    if (attrs == null || attrs.isSymbolicLink()) {
      return; // missing, not POSIX, or a link (refused when opened)
    }
    checkOwner("store file", file, attrs);
    Set<PosixFilePermission> mode = attrs.permissions();
    if (mode.stream().anyMatch(WRITE_BY_OTHERS::contains)) {
      throw new KeyStoreException(
          "store file "
              + file
              + " can be written by other users (mode "
              + PosixFilePermissions.toString(mode)
              + "), so its records cannot be trusted; refusing it. Check it, then make it"
              + " owner-only (chmod 600)");
    }
    if (mode.stream().anyMatch(ACCESS_BY_OTHERS::contains)) {
      Set<PosixFilePermission> narrowed = EnumSet.copyOf(mode);
      narrowed.removeAll(ACCESS_BY_OTHERS);
      try {
        Files.setPosixFilePermissions(file, narrowed);
      } catch (IOException e) {
        throw new KeyStoreException("cannot make store file " + file + " owner-only", e);
      }
      LOG.warn(
          "Store file {} was readable by other users (mode {}); made it owner-only",
          file,
          PosixFilePermissions.toString(mode));
    }
  }

  private static void checkOwner(String what, Path path, PosixFileAttributes attrs) {
    if (!ownedByCurrentUser(path, attrs)) {
      throw new KeyStoreException(
          what
              + " "
              + path
              + " belongs to user "
              + attrs.owner().getName()
              + ", not to the user running the store; refusing it (a store must be owned by"
              + " the account that uses it)");
    }
  }

  private static boolean ownedByCurrentUser(Path path, PosixFileAttributes attrs) {
    if (CURRENT_UID != null) {
      try {
        return CURRENT_UID.equals(Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS));
      } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
        // fall back to names
      }
    }
    return attrs.owner().getName().equals(System.getProperty("user.name"));
  }

  // The process's user id, from the owner of its own /proc entry (Linux), or null.
  private static Object currentUid() {
    try {
      return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }

  private static PosixFileAttributes posixAttributes(Path path) {
    if (!isPosix(path)) {
      return null;
    }
    try {
      return Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return null; // missing, or cannot tell: opening it will say
    }
  }

  static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
