package dev.saferetry.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import okhttp3.Headers;

/**
 * An HTTP response as a case observed it, or the I/O error that replaced it.
 *
 * @param status HTTP status, or 0 when no response arrived
 * @param body raw body ("" when none)
 * @param json the body parsed as JSON, or null
 * @param headers response headers
 * @param error the I/O error's description when no response arrived, else null
 * @param startNanos when the request was sent ({@link System#nanoTime()})
 * @param endNanos when the response ended or the error happened
 */
record Answer(
    int status,
    String body,
    JsonNode json,
    Headers headers,
    String error,
    long startNanos,
    long endNanos) {
  static final ObjectMapper MAPPER = new ObjectMapper();

  Answer {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(headers, "headers");
  }

  static Answer of(int status, String body, Headers headers, long start) {
    return new Answer(status, body, parse(body), headers, null, start, System.nanoTime());
  }

  static Answer failed(IOException e, long start) {
    String error =
        e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return new Answer(0, "", null, Headers.of(), error, start, System.nanoTime());
  }

  static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? null : MAPPER.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }

  /** Whether the status is 2xx. */
  boolean ok() {
    return status >= 200 && status < 300;
  }

  /** Whether no response arrived. */
  boolean lost() {
    return status == 0;
  }

  /** A header value or null. */
  String header(String name) {
    return headers.get(name);
  }

  /** The media type without parameters, lower case ({@code application/json}), or "". */
  String mediaType() {
    String type = header("Content-Type");
    if (type == null) {
      return "";
    }
    int semicolon = type.indexOf(';');
    return (semicolon < 0 ? type : type.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
  }

  /**
   * Same status and a semantically equal body (JSON-equal, else byte-equal). The media type is not
   * part of it: a replay that differs only there is graded by its own case.
   */
  boolean sameOutcomeAs(Answer other) {
    return status == other.status && sameBodyAs(other);
  }

  /** A semantically equal body: JSON-equal when both parse, else byte-equal. */
  boolean sameBodyAs(Answer other) {
    return json != null && other.json != null ? json.equals(other.json) : body.equals(other.body);
  }

  /** Short form for notes: status, or the error. */
  String brief() {
    return lost() ? "no response" : Integer.toString(status);
  }
}
