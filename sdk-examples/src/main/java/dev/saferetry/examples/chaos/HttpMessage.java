package dev.saferetry.examples.chaos;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Just enough HTTP/1.1 framing for the {@link FaultProxy}: a request's head and its {@code
 * Content-Length} body, and a {@code Connection: close} header forced into a message.
 *
 * @param head the request line and headers, up to and including the empty line
 * @param body the body bytes (possibly empty)
 *     <p>Immutable in practice (arrays are not exposed outside the package); thread-safe.
 */
record HttpMessage(String head, byte[] body) {

  /** Reads one request; returns null on a clean end of stream before any byte. */
  static HttpMessage readRequest(InputStream in, int maxHead) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(512);
    int last4 = 0;
    while (last4 != 0x0D0A0D0A) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new EOFException("end of stream inside a request head");
      }
      head.write(b);
      last4 = (last4 << 8) | b;
      if (head.size() > maxHead) {
        throw new IOException("request head too large");
      }
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    int length = contentLength(text);
    byte[] body = in.readNBytes(length);
    if (body.length < length) {
      throw new EOFException("end of stream inside a request body");
    }
    return new HttpMessage(text, body);
  }

  /** Returns whether this is a POST (a mutation that may get a fault). */
  boolean isPost() {
    return head.startsWith("POST ");
  }

  /** Returns the request's bytes with any Connection header replaced by {@code close}. */
  byte[] withConnectionClose() {
    byte[] h = forceClose(head).getBytes(StandardCharsets.ISO_8859_1);
    byte[] out = new byte[h.length + body.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, 0, out, h.length, body.length);
    return out;
  }

  /** Returns a whole answer with {@code Connection: close} forced into its head. */
  static byte[] withConnectionClose(byte[] answer) {
    int end = indexOfHeadEnd(answer);
    if (end < 0) {
      return answer; // not a complete head: pass on as is, the client will fail to parse it
    }
    String head = new String(answer, 0, end, StandardCharsets.ISO_8859_1);
    byte[] h = forceClose(head).getBytes(StandardCharsets.ISO_8859_1);
    byte[] out = new byte[h.length + answer.length - end];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(answer, end, out, h.length, answer.length - end);
    return out;
  }

  private static String forceClose(String head) {
    StringBuilder sb = new StringBuilder(head.length() + 20);
    for (String line : head.split("\r\n")) {
      if (!line.isEmpty() && !line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
        sb.append(line).append("\r\n");
      }
    }
    return sb.append("Connection: close\r\n\r\n").toString();
  }

  private static int indexOfHeadEnd(byte[] b) {
    for (int i = 0; i + 3 < b.length; i++) {
      if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
        return i + 4;
      }
    }
    return -1;
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        return Integer.parseInt(line.substring(colon + 1).trim());
      }
    }
    if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding")) {
      throw new IllegalArgumentException("chunked requests are not supported by the proxy");
    }
    return 0;
  }
}
