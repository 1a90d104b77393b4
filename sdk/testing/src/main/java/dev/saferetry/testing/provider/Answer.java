package dev.saferetry.testing.provider;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an endpoint answers: status, JSON body, extra headers, and whether it was carried out.
 * {@code executed} follows Stripe's rule for keys: only an answer of an endpoint that began its
 * work is stored for the request's key (and counts as an effect of a write); a request refused
 * before any work (a bad parameter, an unknown object) releases its key, so the corrected request
 * can use it. Immutable apart from the headers map, which is copied on every change.
 */
record Answer(
    int status, byte[] body, Map<String, String> headers, boolean executed, String objectId) {

  /** A refusal before any work: not stored, no effect. */
  static Answer refused(int status, Object body) {
    return new Answer(status, Values.write(body), Map.of(), false, null);
  }

  /** The result of work on {@code objectId}: stored for the key, an effect when it was a write. */
  static Answer done(int status, Object body, String objectId) {
    return new Answer(status, Values.write(body), Map.of(), true, objectId);
  }

  /** A read: never stored, never an effect. */
  static Answer read(Object body) {
    return refused(200, body);
  }

  Answer withHeader(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(name, value);
    return new Answer(status, body, Map.copyOf(h), executed, objectId);
  }
}
