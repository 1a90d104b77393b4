package dev.saferetry.testing.provider;

import mockwebserver3.RecordedRequest;
import okhttp3.Headers;
import okio.ByteString;

/**
 * A request as it arrived: method, encoded path and query, headers and body bytes.
 *
 * @param method the method
 * @param path the encoded path
 * @param rawQuery the encoded query, or null
 * @param headers the headers
 * @param body the body, empty when none was sent
 * @param bodySize the body's size as sent (the body is cut at the provider's limit)
 */
record Call(
    String method, String path, String rawQuery, Headers headers, byte[] body, long bodySize) {
  static final int MAX_BODY = 1 << 20;

  static Call of(RecordedRequest request) {
    ByteString body = request.getBody();
    return new Call(
        request.getMethod(),
        request.getUrl().encodedPath(),
        request.getUrl().encodedQuery(),
        request.getHeaders(),
        body == null ? new byte[0] : body.toByteArray(),
        request.getBodySize());
  }

  String header(String name) {
    return headers.get(name);
  }

  boolean isWrite() {
    return !method.equals("GET") && !method.equals("HEAD");
  }
}
