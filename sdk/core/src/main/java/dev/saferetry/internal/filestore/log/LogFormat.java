package dev.saferetry.internal.filestore.log;

import dev.saferetry.idempotency.KeyStoreException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.zip.CRC32C;

/** Constants and framing of the intent log (see the package documentation). Stateless. */
public final class LogFormat {
  /** The name of the log in the store directory. */
  public static final String LOG_FILE = "intents.log";

  static final byte[] MAGIC = "SRKS".getBytes(StandardCharsets.US_ASCII);

  /**
   * The one version this code reads and writes. Development builds before it wrote versions 1 and
   * 2, which no release shipped; the number is kept, never reused, so that a file of theirs is
   * refused by its version instead of being misread.
   */
  static final int VERSION = 3;

  /** The size of the file header: magic, version, generation. */
  public static final int HEADER_SIZE = 16;

  /** The size of a frame's header: length and checksum. */
  public static final int FRAME_HEADER_SIZE = 8;

  /** Far above any real record; a larger length can only be damage. */
  public static final int MAX_PAYLOAD = 64 * 1024;

  /** The largest frame; a crash can tear at most the one frame being written. */
  static final int MAX_FRAME = FRAME_HEADER_SIZE + MAX_PAYLOAD;

  /**
   * The unit a disk writes atomically, at the least. Zeros that start on such a boundary in
   * preallocated space are space never written, even inside a frame a crash tore.
   */
  static final int SECTOR = 512;

  private static final SecureRandom GENERATIONS = new SecureRandom();

  private LogFormat() {}

  /** Returns a new random log generation: the identity of one file, changed by every rewrite. */
  public static long newGeneration() {
    long generation;
    do {
      generation = GENERATIONS.nextLong();
    } while (generation == 0); // 0 stands for "no generation": no complete header
    return generation;
  }

  /** Returns the file header of a log of {@code generation}, ready to write. */
  public static ByteBuffer header(long generation) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE);
    header.put(MAGIC).putInt(VERSION).putLong(generation).flip();
    return header;
  }

  /** The checksum of a frame: CRC32C over the four length bytes, then the payload. */
  static int crc(int length, byte[] data, int payloadOffset) {
    CRC32C crc = new CRC32C();
    crc.update(length >>> 24);
    crc.update(length >>> 16);
    crc.update(length >>> 8);
    crc.update(length);
    crc.update(data, payloadOffset, length);
    return (int) crc.getValue();
  }

  /**
   * Returns the payload length of a complete frame with a correct checksum at {@code offset} of
   * {@code data} (valid up to {@code limit}), or -1.
   */
  public static int validFrameLength(byte[] data, int offset, int limit) {
    if (limit - offset < FRAME_HEADER_SIZE) {
      return -1;
    }
    int length = ByteBuffer.wrap(data, offset, FRAME_HEADER_SIZE).getInt();
    int payload = offset + FRAME_HEADER_SIZE;
    if (length <= 0 || length > MAX_PAYLOAD || length > limit - payload) {
      return -1;
    }
    int crc = ByteBuffer.wrap(data, offset + 4, 4).getInt();
    return crc(length, data, payload) == crc ? length : -1;
  }

  /**
   * The error for bytes of a store file that are not what they must be: names the file and offset,
   * says that nothing was changed and how to recover.
   */
  public static KeyStoreException corrupt(Path file, long offset, String what) {
    return new KeyStoreException(
        "key store file "
            + file
            + " is unreadable at offset "
            + offset
            + ": "
            + what
            + "; nothing was changed. Move the file aside or restore it, then reopen.");
  }
}
