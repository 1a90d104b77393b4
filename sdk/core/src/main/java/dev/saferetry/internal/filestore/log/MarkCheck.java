package dev.saferetry.internal.filestore.log;

import dev.saferetry.idempotency.KeyStoreException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a log against its high-water mark: the same generation (or one whose seal says it replaced
 * the mark's), at least as many valid bytes as were synced, and a mark at all where records exist.
 * A failed check changes nothing and says how to recover. Stateless.
 */
public final class MarkCheck {
  private static final Logger LOG = LoggerFactory.getLogger(MarkCheck.class);

  private MarkCheck() {}

  /** Refuses a log that is missing or empty although the mark says records were synced in it. */
  public static void refuseIfSynced(Path dir, Path file, HighWaterMark.Found found, String what) {
    HighWaterMark.Value value = found.value();
    if (value != null && value.length() > LogFormat.HEADER_SIZE) {
      throw mismatch(
          dir, file, what + ", but records up to offset " + value.length() + " were synced in it");
    }
  }

  /**
   * Checks that the log of {@code generation} is the one the mark describes, or that there is a
   * reason it has none.
   *
   * @param sealedOverMark whether the log is a compaction of the log the mark describes, sealed
   */
  public static void identity(
      Path dir,
      Path file,
      HighWaterMark.Found found,
      long generation,
      long size,
      boolean sealedOverMark) {
    HighWaterMark.Value value = found.value();
    if (value != null && generation != value.generation() && !sealedOverMark) {
      throw mismatch(
          dir,
          file,
          "is not the log the mark describes: its generation at offset 8 is another one (the"
              + " file was replaced, for example by an older copy)");
    }
    if (!found.exists() && size > LogFormat.HEADER_SIZE) {
      throw new KeyStoreException(
          "high-water mark "
              + dir.resolve(HighWaterMark.FILE)
              + " is missing, so the store cannot tell whether "
              + file
              + " was truncated; nothing was changed. Restore the mark; or, to accept the log as"
              + " it is, create an empty owner-only "
              + HighWaterMark.FILE
              + " (install -m 600 /dev/null "
              + dir.resolve(HighWaterMark.FILE)
              + ") and reopen");
    }
    if (found.accepted()) {
      LOG.warn(
          "High-water mark {} is empty: accepting {} as it is, as its operator asked",
          dir.resolve(HighWaterMark.FILE),
          file);
    }
  }

  /** Refuses a log with fewer valid bytes than were synced. */
  public static void length(Path dir, Path file, long synced, long validEnd) {
    if (validEnd < synced) {
      throw mismatch(
          dir,
          file,
          "has valid records up to offset "
              + validEnd
              + " only, but records up to offset "
              + synced
              + " were synced: it was truncated or damaged");
    }
  }

  static KeyStoreException mismatch(Path dir, Path file, String what) {
    return new KeyStoreException(
        "key store file "
            + file
            + " "
            + what
            + " (high-water mark "
            + dir.resolve(HighWaterMark.FILE)
            + "); nothing was changed. Restore the log from a copy, or move the store's files"
            + " aside, then reopen.");
  }
}
