package dev.saferetry.conformance.proxy;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Just enough HTTP/1.1 framing for the {@link FaultProxy}: one request's head and its {@code
 * Content-Length} body. Chunked requests are refused (HTTP clients send byte bodies with a length).
 * Stateless; thread-safe.
 */
final class RequestReader {
  private static final int MAX_HEAD = 64 * 1024;

  private RequestReader() {}

  /** Reads one request; returns null on a clean end of stream before any byte. */
  static ProxiedRequest read(InputStream in) throws IOException {
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
      if (head.size() > MAX_HEAD) {
        throw new IOException("request head too large");
      }
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    if (requestLine.length != 3) {
      throw new IOException("not an HTTP request line");
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    int length = 0;
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        String name = lines[i].substring(0, colon).trim();
        String value = lines[i].substring(colon + 1).trim();
        headers.add(new AbstractMap.SimpleImmutableEntry<>(name, value));
        if (name.equalsIgnoreCase("content-length")) {
          length = Integer.parseInt(value);
        } else if (name.equalsIgnoreCase("transfer-encoding")) {
          throw new IOException("chunked requests are not supported by the proxy");
        }
      }
    }
    byte[] body = in.readNBytes(length);
    if (body.length < length) {
      throw new EOFException("end of stream inside a request body");
    }
    return new ProxiedRequest(requestLine[0], requestLine[1], headers, body);
  }
}
