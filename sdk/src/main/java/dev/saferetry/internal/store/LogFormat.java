package dev.saferetry.internal.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.zip.CRC32C;

/** Constants and framing of the intent log (see the package documentation). Stateless. */
final class LogFormat {
  static final String LOG_FILE = "intents.log";
  static final String COMPACT_FILE = "intents.log.compact";
  static final String LOCK_FILE = "saferetry.lock";

  static final byte[] MAGIC = "SRKS".getBytes(StandardCharsets.US_ASCII);

  /** The version this code writes: a header with a generation, explicit state codes. */
  static final int VERSION = 2;

  /** The first version: an 8-byte header and enum ordinals as states. Read, then upgraded. */
  static final int VERSION_1 = 1;

  static final int HEADER_SIZE = 16;
  static final int HEADER_SIZE_V1 = 8;
  static final int FRAME_HEADER_SIZE = 8;

  /** Far above any real record; a larger length can only be damage. */
  static final int MAX_PAYLOAD = 64 * 1024;

  /** The largest frame; a crash can tear at most the one frame being written. */
  static final int MAX_FRAME = FRAME_HEADER_SIZE + MAX_PAYLOAD;

  private static final SecureRandom GENERATIONS = new SecureRandom();

  private LogFormat() {}

  /** Returns a new random log generation: the identity of one file, changed by every rewrite. */
  static long newGeneration() {
    long generation;
    do {
      generation = GENERATIONS.nextLong();
    } while (generation == 0); // 0 stands for "no generation" (a version-1 file)
    return generation;
  }

  /** Returns the file header of a log of {@code generation}, ready to write. */
  static ByteBuffer header(long generation) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE);
    header.put(MAGIC).putInt(VERSION).putLong(generation).flip();
    return header;
  }

  /** Returns the frame for a payload, ready to write. */
  static ByteBuffer frame(byte[] payload) {
    if (payload.length == 0 || payload.length > MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "an intent record of "
              + payload.length
              + " bytes cannot be stored (limit "
              + MAX_PAYLOAD
              + " bytes)");
    }
    ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER_SIZE + payload.length);
    frame.putInt(payload.length);
    frame.putInt(crc(payload.length, payload, 0));
    frame.put(payload).flip();
    return frame;
  }

  /** The checksum of a frame: CRC32C over the four length bytes, then the payload. */
  static int crc(int length, byte[] data, int payloadOffset) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(4).putInt(length).flip());
    crc.update(data, payloadOffset, length);
    return (int) crc.getValue();
  }
}
