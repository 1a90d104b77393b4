package dev.saferetry.internal.filestore.log;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.file.StoreFiles;
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
 * {@code intents.mark}: which log generation the directory holds, how many of its bytes were
 * synced, and up to where the store preallocated it. A log that is shorter, missing, empty or of
 * another generation was truncated, deleted or replaced behind the store's back, which the bytes of
 * the log alone cannot show; zeros past the preallocated end were not written by the store.
 *
 * <p>The mark costs no sync on the critical path: after each group sync of the log, the leader
 * overwrites the mark in place without syncing it. The kernel writes it back later; until then, or
 * if it is lost in a power failure, the mark on disk is an older, lower value — still true, only
 * less precise. A process killed by a signal loses nothing of it. A larger preallocated end is
 * synced before the log grows into it; closing syncs the mark.
 *
 * <p>Thread-safe: writers are serialised; the value written is always the latest.
 */
public final class HighWaterMark implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HighWaterMark.class);
  static final String FILE = "intents.mark";

  /** The file a new mark is written to before it is renamed over the mark; removed on open. */
  public static final String NEW_FILE = "intents.mark.new";

  static final int SIZE = 36;
  private static final byte[] MAGIC = "SRKM".getBytes(StandardCharsets.US_ASCII);

  // The one version this code reads and writes; development builds wrote a version 1 (without the
  // preallocated end), which no release shipped. Kept, never reused, as the log's version is.
  private static final int VERSION = 2;

  /**
   * A mark: log generation {@code generation} had {@code length} bytes on stable storage, and the
   * store preallocated it up to {@code allocated} (0: not preallocated).
   */
  public record Value(long generation, long length, long allocated) {}

  /** What the directory holds: no mark, an empty one (an operator's acceptance) or a value. */
  public record Found(boolean exists, Value value) {
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
  public static Found read(Path dir) throws IOException {
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
      return decode(file, data);
    }
  }

  private static Found decode(Path file, byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data);
    if (data.length < 8 || !Arrays.equals(data, 0, 4, MAGIC, 0, 4)) {
      throw LogFormat.corrupt(file, 0, "not a SafeRetry high-water mark");
    }
    int version = in.getInt(4);
    if (version != VERSION) {
      throw LogFormat.corrupt(
          file,
          4,
          "unsupported high-water mark version "
              + Integer.toUnsignedString(version)
              + " (this SDK reads version "
              + VERSION
              + " only)");
    }
    if (data.length != SIZE) {
      throw LogFormat.corrupt(file, 0, "a high-water mark of " + data.length + " bytes");
    }
    if (crc(data, SIZE - 4) != in.getInt(SIZE - 4)) {
      throw LogFormat.corrupt(file, SIZE - 4, "checksum mismatch");
    }
    return new Found(true, new Value(in.getLong(8), in.getLong(16), in.getLong(24)));
  }

  /** Creates the mark atomically (new file, sync, rename, directory sync) and keeps it open. */
  public static HighWaterMark create(Path dir, Value value) throws IOException {
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
  public static HighWaterMark openExisting(Path dir, Value value) throws IOException {
    Path file = dir.resolve(FILE);
    return new HighWaterMark(file, StoreFiles.open(file, false), value);
  }

  /** Overwrites the mark in place without syncing: a lower bound until the kernel writes it. */
  synchronized void write(Value value) throws IOException {
    StoreFiles.writeFully(channel, encode(value), 0);
    last = value;
  }

  /**
   * Records that {@code length} bytes of log {@code generation} are synced, without a sync. A mark
   * left behind is lower, never wrong, so a failure here fails nothing: it is logged once until an
   * overwrite succeeds again.
   */
  synchronized void advance(long generation, long length) {
    long allocated = generation == last.generation() ? last.allocated() : 0;
    try {
      write(new Value(generation, length, allocated));
      failing = false;
    } catch (IOException e) {
      if (!failing) {
        failing = true;
        LOG.warn("Cannot update the high-water mark {} ({})", file, e.toString());
      }
    }
  }

  /** Records, durably, that log {@code generation} may be preallocated up to {@code allocated}. */
  void allocate(long generation, long length, long allocated) throws IOException {
    synchronized (this) {
      write(new Value(generation, Math.max(length, lengthOf(generation)), allocated));
    }
    channel.force(false); // outside the lock: a leader's overwrite meanwhile keeps the new end
  }

  private long lengthOf(long generation) {
    return generation == last.generation() ? last.length() : 0;
  }

  /** Overwrites the mark in place and syncs it. */
  public synchronized void writeDurably(Value value) throws IOException {
    write(value);
    channel.force(false);
  }

  Path file() {
    return file;
  }

  /** The value last written or read. */
  synchronized Value last() {
    return last;
  }

  private static ByteBuffer encode(Value value) {
    ByteBuffer out = ByteBuffer.allocate(SIZE);
    out.put(MAGIC).putInt(VERSION).putLong(value.generation()).putLong(value.length());
    out.putLong(value.allocated());
    out.putInt(crc(out.array(), SIZE - 4));
    return out.flip();
  }

  private static int crc(byte[] data, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, length);
    return (int) crc.getValue();
  }

  @Override
  public void close() {
    StoreFiles.closeQuietly(channel);
  }
}
