package dev.saferetry.internal.store;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code intents.mark}: which log generation the directory holds and how many of its bytes were
 * synced. A log that is shorter, missing, empty or of another generation was truncated, deleted or
 * replaced behind the store's back, which the bytes of the log alone cannot show.
 *
 * <p>The mark costs no sync on the critical path: after each group sync of the log, the leader
 * overwrites the mark's 28 bytes in place without syncing them. The kernel writes them back later;
 * until then, or if they are lost in a power failure, the mark on disk is an older, lower value —
 * still true, only less precise. A process killed by a signal loses nothing of it. Generation
 * changes (creation, compaction, close) are synced.
 *
 * <p>Not thread-safe: the log's sync leader or the store's lock serialises its use.
 */
final class HighWaterMark implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogStore.class);
  static final String FILE = "intents.mark";
  static final String NEW_FILE = "intents.mark.new";
  static final int SIZE = 28;
  private static final byte[] MAGIC = "SRKM".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 1;

  /** A mark: log generation {@code generation} had {@code length} bytes on stable storage. */
  record Value(long generation, long length) {}

  /** What the directory holds: no mark, an empty one (an operator's acceptance) or a value. */
  record Found(boolean exists, Value value) {
    boolean accepted() {
      return exists && value == null;
    }
  }

  private final Path file;
  private final FileChannel channel;
  private Value last;
  private boolean failing;

  private HighWaterMark(Path file, FileChannel channel, Value last) {
    this.file = file;
    this.channel = channel;
    this.last = last;
  }

  /**
   * Reads the mark of {@code dir}.
   *
   * @throws KeyStoreException naming the file if it exists but is not a valid mark
   */
  static Found read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return new Found(false, null);
    }
    StoreFiles.checkExistingFile(file);
    try (FileChannel channel = StoreFiles.open(file, false)) {
      byte[] data = StoreFiles.readAll(channel, file);
      if (data.length == 0) {
        return new Found(true, null);
      }
      return new Found(true, decode(file, data));
    }
  }

  private static Value decode(Path file, byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data);
    if (data.length != SIZE || !Arrays.equals(data, 0, 4, MAGIC, 0, 4) || in.getInt(4) != VERSION) {
      throw LogScanner.corrupt(file, 0, "not a SafeRetry high-water mark of this version");
    }
    if (crc(data) != in.getInt(SIZE - 4)) {
      throw LogScanner.corrupt(file, SIZE - 4, "checksum mismatch");
    }
    return new Value(in.getLong(8), in.getLong(16));
  }

  /** Creates the mark atomically (new file, sync, rename, directory sync) and keeps it open. */
  static HighWaterMark create(Path dir, Value value) throws IOException {
    Path temp = dir.resolve(NEW_FILE);
    Files.deleteIfExists(temp);
    try (FileChannel channel = StoreFiles.open(temp, true)) {
      StoreFiles.writeFully(channel, encode(value), 0);
      channel.force(true);
    }
    Path file = dir.resolve(FILE);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    StoreFiles.forceDirectory(dir);
    return new HighWaterMark(file, StoreFiles.open(file, false), value);
  }

  /** Opens the existing mark of {@code dir}, which {@link #read} found to hold {@code value}. */
  static HighWaterMark openExisting(Path dir, Value value) throws IOException {
    Path file = dir.resolve(FILE);
    return new HighWaterMark(file, StoreFiles.open(file, false), value);
  }

  /** Overwrites the mark in place without syncing: a lower bound until the kernel writes it. */
  void write(Value value) throws IOException {
    StoreFiles.writeFully(channel, encode(value), 0);
    last = value;
  }

  /**
   * Overwrites the mark after a good sync of the log. A mark left behind is lower, never wrong, so
   * a failure here fails nothing: it is logged once until an overwrite succeeds again.
   */
  void advance(Value value) {
    try {
      write(value);
      failing = false;
    } catch (IOException e) {
      if (!failing) {
        failing = true;
        LOG.warn("Cannot update the high-water mark {} ({})", file, e.toString());
      }
    }
  }

  /** Overwrites the mark in place and syncs it. */
  void writeDurably(Value value) throws IOException {
    write(value);
    channel.force(false);
  }

  Path file() {
    return file;
  }

  /** The value last written or read. */
  Value last() {
    return last;
  }

  private static ByteBuffer encode(Value value) {
    ByteBuffer out = ByteBuffer.allocate(SIZE);
    out.put(MAGIC).putInt(VERSION).putLong(value.generation()).putLong(value.length());
    out.putInt(crc(out.array()));
    return out.flip();
  }

  private static int crc(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, SIZE - 4);
    return (int) crc.getValue();
  }

  @Override
  public void close() {
    StoreFiles.closeQuietly(channel);
  }
}
