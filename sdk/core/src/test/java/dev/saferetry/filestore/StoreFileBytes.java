package dev.saferetry.filestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.LogCapture;
import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** Reads, damages and observes the store's log file from the outside, as a crash or disk would. */
final class StoreFileBytes {
  static final String LOG = "intents.log";
  static final String MARK = "intents.mark";

  private StoreFileBytes() {}

  static byte[] read(Path dir) throws IOException {
    return Files.readAllBytes(dir.resolve(LOG));
  }

  static void write(Path dir, byte[] bytes) throws IOException {
    Files.write(dir.resolve(LOG), bytes);
  }

  static long size(Path dir) throws IOException {
    return Files.size(dir.resolve(LOG));
  }

  /**
   * The end of the records in the log, found by walking its frames (length, checksum, payload) from
   * the header: a log may end with preallocated zeros, so its size says nothing.
   */
  static long recordsEnd(Path dir) throws IOException {
    return recordsEnd(read(dir));
  }

  static long recordsEnd(byte[] log) {
    int pos = 16;
    while (pos + 8 <= log.length) {
      int length = java.nio.ByteBuffer.wrap(log, pos, 4).getInt();
      if (length <= 0 || pos + 8L + length > log.length) {
        break;
      }
      pos += 8 + length;
    }
    return pos;
  }

  static byte[] readMark(Path dir) throws IOException {
    return Files.readAllBytes(dir.resolve(MARK));
  }

  /** Puts back an earlier mark, as if its latest overwrite never reached the disk. */
  static void writeMark(Path dir, byte[] mark) throws IOException {
    Files.write(dir.resolve(MARK), mark);
  }

  /** The names of the files in {@code dir}, sorted. */
  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> listing = Files.list(dir)) {
      return listing.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** The files under {@code dir} that this process holds open (Linux: through /proc/self/fd). */
  static List<Path> openFilesUnder(Path dir) throws IOException {
    List<Path> open = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.startsWith(dir)) {
            open.add(target);
          }
        } catch (IOException closedMeanwhile) {
          // the descriptor of the listing itself, or one closed by another thread
        }
      }
    }
    return open;
  }

  static void flipByte(Path dir, long offset) throws IOException {
    byte[] bytes = read(dir);
    bytes[(int) offset] ^= (byte) 0x5A;
    write(dir, bytes);
  }

  /**
   * Asserts that opening the store in {@code dir} fails with a message naming its log and holding
   * every one of {@code parts}, and that no byte of the log or mark and no file name changed.
   */
  static void assertOpenRefusedChangingNothing(Path dir, String... parts) throws IOException {
    byte[] log = read(dir);
    byte[] mark = readMark(dir);
    List<String> files = names(dir);
    var refused =
        assertThatThrownBy(() -> FileKeyStore.open(dir))
            .isInstanceOf(KeyStoreException.class)
            .hasMessageContaining(dir.resolve(LOG).toString())
            .hasMessageContaining("nothing was changed");
    for (String part : parts) {
      refused.hasMessageContaining(part);
    }
    assertThat(read(dir)).isEqualTo(log);
    assertThat(readMark(dir)).isEqualTo(mark);
    assertThat(names(dir)).isEqualTo(files);
  }

  /** Runs {@code action} and returns what it logged. */
  static <T> String logOutputOf(Callable<T> action) throws Exception {
    return LogCapture.of(action);
  }
}
