package dev.saferetry.internal.store;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Length-prefixed UTF-8 strings that fail instead of substituting: text with an unpaired surrogate
 * is refused before it is written (a replacement character would make two different ids one), and
 * bytes that are not valid UTF-8 are reported as damage when read. One instance per record; not
 * thread-safe.
 */
final class StrictUtf8 {
  private CharsetEncoder encoder;
  private CharsetDecoder decoder;

  /**
   * Writes the length and the exact UTF-8 bytes of {@code value}.
   *
   * @throws IllegalArgumentException if the text has no exact UTF-8 form
   */
  void write(DataOutputStream out, String value) throws IOException {
    if (encoder == null) {
      encoder =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    ByteBuffer utf8;
    try {
      utf8 = encoder.encode(CharBuffer.wrap(value));
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "text with an unpaired surrogate cannot be stored exactly", e);
    }
    out.writeInt(utf8.remaining());
    out.write(utf8.array(), utf8.arrayOffset() + utf8.position(), utf8.remaining());
  }

  /**
   * Reads a string written by {@link #write}.
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
      decoder =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    try {
      return decoder.decode(utf8).toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("a string is not valid UTF-8", e);
    }
  }
}
