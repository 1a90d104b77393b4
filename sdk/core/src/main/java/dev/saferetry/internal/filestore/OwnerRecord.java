package dev.saferetry.internal.filestore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.file.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * {@code saferetry.owner}: which process holds a store directory — its pid and start time, in an
 * owner-only file written once the store is open and emptied on close. The locks alone do not
 * survive an operator who deletes the lock file and replaces the log by a copy (a new, unlocked
 * file): a second opener then finds nothing locked. It still finds this record naming a live
 * process, and refuses. A record of a process that is gone (killed, or its pid reused by another
 * process, which started at another time) is stale, and replaced by the next store to open. Writing
 * it is best effort (a full disk must not keep a store closed). Stateless.
 */
final class OwnerRecord {
  static final String FILE = "saferetry.owner";

  // The longest record read; anything longer is not one.
  private static final int MAX_BYTES = 256;

  private OwnerRecord() {}

  /** This process's record: {@code pid start}, the start time as an ISO instant or {@code -}. */
  static String ofThisProcess() {
    ProcessHandle self = ProcessHandle.current();
    return self.pid() + " " + self.info().startInstant().map(Object::toString).orElse("-");
  }

  /**
   * Refuses the directory if its record names another live process. Reads only.
   *
   * @throws KeyStoreException if another live process owns the directory, or the record cannot be
   *     read
   */
  static void check(Path dir, String what) {
    Path file = dir.resolve(FILE);
    Optional<String> owner;
    try {
      owner = read(file);
    } catch (IOException e) {
      throw new KeyStoreException("cannot read the owner record " + file + " of " + what, e);
    }
    if (owner.isPresent() && namesAnotherLiveProcess(owner.get())) {
      throw new KeyStoreException(
          what
              + " is locked by another process: "
              + file
              + " names process "
              + owner.get().split(" ", 2)[0]
              + ", which is running, although the lock file or log it locked is gone (deleted or"
              + " replaced?); a store directory can be used by one process at a time. If that"
              + " process does not use the store, empty or delete "
              + file);
    }
  }

  /** Records this process as the owner; best effort, with a warning if it cannot be written. */
  static void record(Path dir, Logger log) {
    Path file = dir.resolve(FILE);
    try {
      write(file, ofThisProcess());
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot record the owner of key store directory {} in {} ({})", dir, file, e);
    }
  }

  /** Empties the record if it still names this process: the directory has no owner now. */
  static void release(Path dir) {
    Path file = dir.resolve(FILE);
    try {
      if (read(file).filter(ofThisProcess()::equals).isPresent()) {
        write(file, "");
      }
    } catch (IOException | RuntimeException e) {
      // stale now; the next opener sees this process gone and replaces it
    }
  }

  private static Optional<String> read(Path file) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    StoreFiles.checkExistingFile(file);
    try (FileChannel channel = StoreFiles.open(file, false)) {
      ByteBuffer bytes = ByteBuffer.allocate(MAX_BYTES);
      while (bytes.hasRemaining() && channel.read(bytes) > 0) {
        // read up to MAX_BYTES
      }
      return Optional.of(new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8));
    }
  }

  private static void write(Path file, String record) throws IOException {
    try (FileChannel channel = StoreFiles.open(file, true)) {
      channel.truncate(0);
      StoreFiles.writeFully(channel, ByteBuffer.wrap(record.getBytes(StandardCharsets.UTF_8)), 0);
    }
  }

  /** Whether {@code record} names a process other than this one that is still running. */
  static boolean namesAnotherLiveProcess(String record) {
    String[] fields = record.trim().split(" ");
    long pid;
    try {
      pid = Long.parseLong(fields[0]);
    } catch (NumberFormatException e) {
      return false; // not a record this code wrote: nobody to wait for
    }
    if (pid == ProcessHandle.current().pid()) {
      return false; // this process: the registry of open stores guards it
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (process.isEmpty()) {
      return false;
    }
    Optional<String> started = process.get().info().startInstant().map(Object::toString);
    String recorded = fields.length > 1 ? fields[1] : "-";
    if (started.isEmpty() || recorded.equals("-")) {
      return true; // cannot tell a reused pid from the owner: assume the owner
    }
    return started.get().equals(recorded);
  }
}
