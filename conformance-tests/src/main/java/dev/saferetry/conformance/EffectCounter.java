package dev.saferetry.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * How the target's side effects are counted, declared in one of three ways:
 *
 * <ul>
 *   <li>{@code effects.count} — a request template answering the count for {@code ${marker}} at
 *       {@code effects.count.pointer} (default {@code /total}); any endpoint whose JSON holds such
 *       a count will do, e.g. the API's own retrieve endpoint of an aggregate;
 *   <li>{@code effects.list} — the API's own list endpoint: the items at {@code effects.list.items}
 *       (default: the root array) whose {@code effects.list.match} field (default {@code
 *       /description}) equals the marker are counted;
 *   <li>{@code effects.total} — a global counter at {@code effects.total.pointer} (default {@code
 *       /total}), read as the change around a case: the target must serve nothing else meanwhile.
 * </ul>
 *
 * Immutable and thread-safe.
 */
final class EffectCounter {
  /** The way effects are counted. */
  enum Mode {
    NONE,
    PER_MARKER,
    LIST,
    GLOBAL
  }

  private final Mode mode;
  private final HookTemplate template;
  private final String pointer;
  private final String match;

  private EffectCounter(Mode mode, HookTemplate template, String pointer, String match) {
    this.mode = mode;
    this.template = template;
    this.pointer = pointer;
    this.match = match;
  }

  /** The counter the configuration declares (the first of count, list, total), or none. */
  static EffectCounter declared(SuiteConfig c) {
    if (c.get("effects.count") != null) {
      return new EffectCounter(
          Mode.PER_MARKER,
          HookTemplate.parse("effects.count", withGet(c.get("effects.count"))),
          pointer(c, "effects.count.pointer", "/total"),
          null);
    }
    if (c.get("effects.list") != null) {
      return new EffectCounter(
          Mode.LIST,
          HookTemplate.parse("effects.list", withGet(c.get("effects.list"))),
          pointer(c, "effects.list.items", ""),
          pointer(c, "effects.list.match", "/description"));
    }
    if (c.get("effects.total") != null) {
      return new EffectCounter(
          Mode.GLOBAL,
          HookTemplate.parse("effects.total", withGet(c.get("effects.total"))),
          pointer(c, "effects.total.pointer", "/total"),
          null);
    }
    return new EffectCounter(Mode.NONE, null, null, null);
  }

  private static String withGet(String spec) {
    return spec.startsWith("/") || spec.startsWith("http") ? "GET " + spec : spec;
  }

  private static String pointer(SuiteConfig c, String key, String fallback) {
    String value = c.all().getOrDefault(key, fallback).strip();
    JsonPointer.compile(value); // fails early on a malformed pointer
    return value;
  }

  Mode mode() {
    return mode;
  }

  /** The property that declared the counter, for messages. */
  String property() {
    return template == null ? "none" : template.property();
  }

  /** Effects recorded for {@code marker} (per-marker or list mode). */
  long count(Probe t, String marker) {
    JsonNode body = read(t, marker);
    if (mode == Mode.PER_MARKER) {
      return number(body.at(pointer));
    }
    JsonNode items = body.at(pointer);
    if (!items.isArray()) {
      throw new HookFailure(
          property() + ": no array at " + (pointer.isEmpty() ? "the root" : pointer));
    }
    long n = 0;
    for (JsonNode item : items) {
      if (marker.equals(item.at(match).asText(null))) {
        n++;
      }
    }
    return n;
  }

  /** The global counter's value (global mode). */
  long total(Probe t) {
    return number(read(t, "").at(pointer));
  }

  private long number(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isTextual()) {
      return parse(node.asText());
    }
    throw new HookFailure(property() + ": no integer count at " + pointer + " in its answer");
  }

  private long parse(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new HookFailure(property() + ": no integer count at " + pointer + " in its answer");
    }
  }

  private JsonNode read(Probe t, String marker) {
    // The webhook-receiver contract's marker is the order an event is about: ${order_id} too.
    String encoded = URLEncoder.encode(marker, StandardCharsets.UTF_8);
    Map<String, String> values = Map.of("marker", encoded, "order_id", encoded);
    Answer a =
        t.attempt(
            "counter",
            t.request(
                template.method(),
                template.url(values),
                template.body(Map.of("marker", marker, "order_id", marker)),
                null,
                Hooks.headers(t)),
            t.session.http,
            false);
    if (!a.ok() || a.json() == null) {
      throw new HookFailure(
          property() + " answered " + a.brief() + (a.json() == null ? " without a JSON body" : ""));
    }
    return a.json();
  }
}
