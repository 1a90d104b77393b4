package dev.saferetry.internal.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** Constants and framing of the intent log (see the package documentation). Stateless. */
final class LogFormat {
  static final String LOG_FILE = "intents.log";
  static final String COMPACT_FILE = "intents.log.compact";
  static final String LOCK_FILE = "saferetry.lock";

  static final byte[] MAGIC = "SRKS".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int HEADER_SIZE = 8;
  static final int FRAME_HEADER_SIZE = 8;

  /** Far above any real record; a larger length can only be damage. */
  static final int MAX_PAYLOAD = 64 * 1024;

  private LogFormat() {}

  /** Returns the file header, ready to write. */
  static ByteBuffer header() {
    ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE);
    header.put(MAGIC).putInt(VERSION).flip();
    return header;
  }

  /** Returns the frame for a payload, ready to write. */
  static ByteBuffer frame(byte[] payload) {
    if (payload.length == 0 || payload.length > MAX_PAYLOAD) {
      throw new IllegalArgumentException("record of " + payload.length + " bytes cannot be stored");
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
