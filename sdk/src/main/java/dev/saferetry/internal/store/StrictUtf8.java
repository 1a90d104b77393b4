package dev.saferetry.internal.store;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the length-prefixed UTF-8 strings of format versions 1 and 2, failing instead of
 * substituting: bytes that are not valid UTF-8 are reported as damage. One instance per record; not
 * thread-safe.
 */
final class StrictUtf8 {
  private CharsetDecoder decoder;

  /** A UTF-8 decoder that reports malformed input instead of replacing it. */
  static CharsetDecoder newDecoder() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  /**
   * Reads a length-prefixed string.
   *
   * @throws IllegalArgumentException if the length is out of bounds or the bytes are not UTF-8
   */
  String read(ByteBuffer in) {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("string length " + length + " out of bounds");
    }
    ByteBuffer utf8 = in.slice(in.position(), length);
    in.position(in.position() + length);
    if (decoder == null) {
      decoder = newDecoder();
    }
    try {
      return decoder.decode(utf8).toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("a string is not valid UTF-8", e);
    }
  }
}
