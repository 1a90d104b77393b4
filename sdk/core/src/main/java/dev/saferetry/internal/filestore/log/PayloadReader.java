package dev.saferetry.internal.filestore.log;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one record payload, checking every bound: a payload that does not hold what
 * its type promises fails with {@link IllegalArgumentException}, never with a value made up. Text
 * must be valid UTF-8; it can be checked without being turned into a {@code String}. Reusable with
 * {@link #reset}; not thread-safe.
 */
public final class PayloadReader {
  private byte[] data;
  private int pos;
  private int end;
  private CharsetDecoder decoder;
  private CharBuffer chars;

  /** Reads {@code data[offset, offset + length)}. */
  public PayloadReader reset(byte[] data, int offset, int length) {
    this.data = data;
    this.pos = offset;
    this.end = offset + length;
    return this;
  }

  /** Where the next byte is read, in {@link #data()}. */
  public int position() {
    return pos;
  }

  /** The array being read. */
  public byte[] data() {
    return data;
  }

  /** How many bytes of the payload are left. */
  public int remaining() {
    return end - pos;
  }

  /** Fails unless the payload was read to its last byte. */
  public void expectEnd() {
    if (pos != end) {
      throw new IllegalArgumentException((end - pos) + " unexpected trailing bytes");
    }
  }

  /** Reads one unsigned byte. */
  public int u8() {
    need(1);
    return data[pos++] & 0xFF;
  }

  /** Reads eight bytes, big-endian. */
  public long int64() {
    need(8);
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (data[pos++] & 0xFF);
    }
    return value;
  }

  /** Reads an unsigned LEB128 number of at most ten bytes. */
  public long varlong() {
    int at = pos;
    if (end - at >= 10) { // the common case, with one bounds check
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = data[at++];
        value |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          pos = at;
          return value;
        }
      }
      throw new IllegalArgumentException("a number longer than ten bytes");
    }
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = u8();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("a number longer than ten bytes");
  }

  /** Reads a number that must fit in {@code 0..max}. */
  public int varint(int max) {
    long value = varlong();
    if (value < 0 || value > max) {
      throw new IllegalArgumentException("a number out of range: " + value);
    }
    return (int) value;
  }

  /** Reads a text's length and returns where its bytes start, skipping them unchecked. */
  public int textStart() {
    int length = varint(end - pos);
    int at = pos;
    pos += length;
    return at;
  }

  /** Skips {@code count} raw bytes and returns where they start. */
  public int skip(int count) {
    need(count);
    int at = pos;
    pos += count;
    return at;
  }

  /** Reads a text's length, checks that its bytes are valid UTF-8, and returns where they start. */
  public int validTextStart() {
    int length = varint(end - pos);
    int at = pos;
    decode(pos, length, false);
    pos += length;
    return at;
  }

  /** Skips a text after checking that it is valid UTF-8. */
  public void skipText() {
    int length = varint(end - pos);
    decode(pos, length, false);
    pos += length;
  }

  /** Reads a text; it must be valid UTF-8. */
  public String text() {
    int length = varint(end - pos);
    String value = decode(pos, length, true);
    pos += length;
    return value;
  }

  /** The byte at {@code index} of the data being read. */
  public byte byteAt(int index) {
    return data[index];
  }

  private String decode(int from, int length, boolean keep) {
    boolean ascii = true;
    for (int i = from; i < from + length && ascii; i++) {
      ascii = data[i] >= 0;
    }
    if (ascii) {
      return keep ? new String(data, from, length, StandardCharsets.US_ASCII) : null;
    }
    if (decoder == null) {
      decoder =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT) // damage is reported, never replaced
              .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    if (chars == null || chars.capacity() < length) {
      chars = CharBuffer.allocate(Math.max(length, 64));
    }
    chars.clear();
    decoder.reset();
    ByteBuffer in = ByteBuffer.wrap(data, from, length);
    CoderResult result = decoder.decode(in, chars, true);
    if (!result.isUnderflow() || !decoder.flush(chars).isUnderflow()) {
      throw new IllegalArgumentException("a string is not valid UTF-8");
    }
    return keep ? chars.flip().toString() : null;
  }

  private void need(int count) {
    if (count < 0 || count > end - pos) {
      throw new IllegalArgumentException("the record ends early");
    }
  }
}
