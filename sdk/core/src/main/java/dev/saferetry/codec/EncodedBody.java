package dev.saferetry.codec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * A request body as it goes on the wire: exact bytes and their {@code Content-Type}. A call encodes
 * its body once and every attempt sends these same bytes.
 *
 * <p>{@link #toString()} shows the content type and the length, never the bytes: bodies carry
 * payment and personal data.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class EncodedBody {
  private final byte[] bytes;
  private final String contentType;

  private EncodedBody(byte[] bytes, String contentType) {
    this.bytes = bytes;
    this.contentType = contentType;
  }

  /**
   * {@return a body of a copy of {@code bytes}}
   *
   * @param bytes the bytes
   * @param contentType the content type
   * @throws IllegalArgumentException if the content type is blank or holds a CR, LF or other
   *     control character
   */
  public static EncodedBody of(byte[] bytes, String contentType) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(contentType, "contentType");
    if (contentType.isBlank() || !visibleAscii(contentType)) {
      throw new IllegalArgumentException("contentType must be visible ASCII and not blank");
    }
    return new EncodedBody(bytes.clone(), contentType);
  }

  private static boolean visibleAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        return false;
      }
    }
    return true;
  }

  /** {@return a copy of the bytes} */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** {@return the number of bytes} */
  public int length() {
    return bytes.length;
  }

  /** {@return the {@code Content-Type} header value, e.g. {@code application/json}} */
  public String contentType() {
    return contentType;
  }

  /**
   * Writes the bytes to {@code out} without copying them.
   *
   * @param out where the bytes go
   * @throws java.io.IOException if {@code out} cannot be written
   */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EncodedBody other
        && contentType.equals(other.contentType)
        && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * contentType.hashCode() + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "EncodedBody[" + contentType + ", " + bytes.length + " bytes]";
  }
}
