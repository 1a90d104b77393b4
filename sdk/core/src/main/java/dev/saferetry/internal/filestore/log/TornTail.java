package dev.saferetry.internal.filestore.log;

import dev.saferetry.internal.filestore.file.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts a torn final frame off the log — after saving its bytes to a side file next to the log
 * ({@code intents.log.torn-<offset>}), so that nothing is destroyed, only set aside. Stateless.
 */
public final class TornTail {
  private static final Logger LOG = LoggerFactory.getLogger(TornTail.class);
  static final String SIDE_FILE_PREFIX = LogFormat.LOG_FILE + ".torn-";

  private TornTail() {}

  /**
   * Saves {@code [from, to)} of the log to a new side file, syncs it, then cuts the log at from.
   */
  public static void cut(Path dir, Path file, FileChannel channel, long from, long to)
      throws IOException {
    ByteBuffer torn = ByteBuffer.allocate((int) (to - from));
    while (torn.hasRemaining() && channel.read(torn, from + torn.position()) > 0) {
      // the bytes were there when the tail was checked
    }
    torn.flip();
    Path side = freeName(dir, from);
    var options =
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    try (FileChannel out =
        StoreFiles.isPosix(side)
            ? FileChannel.open(
                side,
                options,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
            : FileChannel.open(side, options)) {
      StoreFiles.writeFully(out, torn, 0);
      out.force(true);
    }
    StoreFiles.forceDirectory(dir);
    channel.truncate(from);
    channel.force(false);
    LOG.warn(
        "Cut off a torn record at the end of key store file {} at offset {} ({} bytes, saved to"
            + " {}); the process stopped while writing it, before it was acknowledged",
        file,
        from,
        to - from,
        side);
  }

  private static Path freeName(Path dir, long offset) {
    Path side = dir.resolve(SIDE_FILE_PREFIX + offset);
    for (int n = 1; Files.exists(side, LinkOption.NOFOLLOW_LINKS); n++) {
      side = dir.resolve(SIDE_FILE_PREFIX + offset + "." + n);
    }
    return side;
  }
}
