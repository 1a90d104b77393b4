package dev.saferetry.internal.filestore.log;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A growable byte array that whole frames are encoded into, to be written with one call: each frame
 * is opened with {@link #open}, filled, and closed with {@link #close}, which writes its length and
 * checksum. Text is written as exact UTF-8, refusing what has no exact form (an unpaired surrogate)
 * rather than substituting. Reused for every record; not thread-safe.
 */
public final class FrameBuffer {
  private byte[] bytes = new byte[512];
  private int length;
  private int frameStart = -1;
  private final CRC32C crc = new CRC32C();

  /** Drops everything written so far. */
  public FrameBuffer clear() {
    length = 0;
    frameStart = -1;
    return this;
  }

  /** Starts a frame; returns its offset in this buffer. */
  public int open() {
    frameStart = length;
    ensure(LogFormat.FRAME_HEADER_SIZE);
    length += LogFormat.FRAME_HEADER_SIZE;
    return frameStart;
  }

  /**
   * Ends the frame started last: writes its length and checksum. Returns the frame's length.
   *
   * @throws IllegalArgumentException if the payload is larger than a record may be
   */
  public int close() {
    int payload = length - frameStart - LogFormat.FRAME_HEADER_SIZE;
    if (payload <= 0 || payload > LogFormat.MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "an intent record of "
              + payload
              + " bytes cannot be stored (limit "
              + LogFormat.MAX_PAYLOAD
              + " bytes)");
    }
    putIntAt(frameStart, payload);
    crc.reset();
    crc.update(bytes, frameStart, 4);
    crc.update(bytes, frameStart + LogFormat.FRAME_HEADER_SIZE, payload);
    putIntAt(frameStart + 4, (int) crc.getValue());
    int frame = length - frameStart;
    frameStart = -1;
    return frame;
  }

  /** Writes the low eight bits of {@code value}. */
  public FrameBuffer putByte(int value) {
    ensure(1);
    bytes[length++] = (byte) value;
    return this;
  }

  /** Writes an unsigned LEB128 number: seven bits a byte, low bits first. */
  public FrameBuffer putVarlong(long value) {
    ensure(10);
    long rest = value;
    while ((rest & ~0x7FL) != 0) {
      bytes[length++] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    bytes[length++] = (byte) rest;
    return this;
  }

  /** Writes eight bytes, big-endian. */
  public FrameBuffer putLong(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      bytes[length++] = (byte) (value >>> shift);
    }
    return this;
  }

  /** Writes {@code source[offset, offset + count)} as it is (whole frames, or a file header). */
  public FrameBuffer putBytes(byte[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, bytes, length, count);
    length += count;
    return this;
  }

  /**
   * Writes the UTF-8 length, then the exact UTF-8 bytes of {@code text}.
   *
   * @throws IllegalArgumentException if the text has an unpaired surrogate
   */
  public FrameBuffer putText(String text) {
    int utf8 = utf8Length(text);
    putVarlong(utf8);
    ensure(utf8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes[length++] = (byte) c;
      } else if (c < 0x800) {
        bytes[length++] = (byte) (0xC0 | (c >> 6));
        bytes[length++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)) {
        int cp = Character.toCodePoint(c, text.charAt(++i));
        bytes[length++] = (byte) (0xF0 | (cp >> 18));
        bytes[length++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        bytes[length++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        bytes[length++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        bytes[length++] = (byte) (0xE0 | (c >> 12));
        bytes[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        bytes[length++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return this;
  }

  // The UTF-8 length of text; refuses an unpaired surrogate.
  private static int utf8Length(String text) {
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (!Character.isSurrogate(c)) {
        n += 3;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        throw new IllegalArgumentException(
            "text with an unpaired surrogate cannot be stored exactly (index " + i + ")");
      }
    }
    return n;
  }

  private void putIntAt(int at, int value) {
    bytes[at] = (byte) (value >>> 24);
    bytes[at + 1] = (byte) (value >>> 16);
    bytes[at + 2] = (byte) (value >>> 8);
    bytes[at + 3] = (byte) value;
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }

  /** The bytes written so far; valid up to {@link #length()}. */
  public byte[] array() {
    return bytes;
  }

  /** How many bytes were written so far. */
  public int length() {
    return length;
  }

  /** A view of the bytes written so far, ready to write. */
  public ByteBuffer view() {
    return ByteBuffer.wrap(bytes, 0, length);
  }
}
