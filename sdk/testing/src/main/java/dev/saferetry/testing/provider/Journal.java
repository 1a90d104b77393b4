package dev.saferetry.testing.provider;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Every request received and every effect made, in order, each with its identity (method, path,
 * account and canonical parameters: what makes two requests the same request), and the checks over
 * them. Thread-safe.
 */
final class Journal {
  private record Entry<T>(T value, String identity) {}

  private final List<Entry<Received>> received = new ArrayList<>();
  private final List<Entry<Effect>> effects = new ArrayList<>();

  synchronized void received(Received r, String identity) {
    received.add(new Entry<>(r, identity));
  }

  synchronized void effect(Effect e, String identity) {
    effects.add(new Entry<>(e, identity));
  }

  synchronized List<Received> received() {
    return received.stream().map(Entry::value).toList();
  }

  synchronized List<Effect> effects() {
    return effects.stream().map(Entry::value).toList();
  }

  synchronized void clear() {
    received.clear();
    effects.clear();
  }

  /** Keys under which more than one effect was made, and what those effects were. */
  synchronized List<String> keysWithSeveralEffects() {
    Map<String, List<Effect>> byKey = new LinkedHashMap<>();
    for (Entry<Effect> e : effects) {
      if (e.value().key() != null) {
        byKey.computeIfAbsent(e.value().key(), k -> new ArrayList<>()).add(e.value());
      }
    }
    List<String> problems = new ArrayList<>();
    byKey.forEach(
        (key, list) -> {
          if (list.size() > 1) {
            problems.add(list.size() + " effects under key " + key + ": " + describe(list));
          }
        });
    return problems;
  }

  /**
   * Effects of the same request (same method, path, account and parameters) made more than once.
   */
  synchronized List<String> duplicateEffects() {
    Map<String, List<Effect>> byIdentity = new LinkedHashMap<>();
    for (Entry<Effect> e : effects) {
      byIdentity.computeIfAbsent(e.identity(), k -> new ArrayList<>()).add(e.value());
    }
    List<String> problems = new ArrayList<>();
    for (List<Effect> list : byIdentity.values()) {
      if (list.size() > 1) {
        Set<String> keys = new LinkedHashSet<>();
        list.forEach(e -> keys.add(String.valueOf(e.key())));
        problems.add(
            list.size()
                + " effects of one request "
                + list.get(0).operation()
                + " "
                + list.get(0).parameters()
                + " under keys "
                + keys
                + ": "
                + describe(list));
      }
    }
    return problems;
  }

  /**
   * Intents whose attempts carried more than one key (or a key on some and none on others); an
   * intent is what {@code intent} returns for a write, by default its identity.
   */
  synchronized List<String> intentsWithSeveralKeys(Function<Received, ?> intent) {
    Map<Object, Set<String>> keys = new LinkedHashMap<>();
    for (Entry<Received> r : received) {
      if (!isWrite(r.value())) {
        continue;
      }
      Object id = intent == null ? r.identity() : intent.apply(r.value());
      if (id != null) {
        keys.computeIfAbsent(id, k -> new LinkedHashSet<>()).add(String.valueOf(r.value().key()));
      }
    }
    List<String> problems = new ArrayList<>();
    keys.forEach(
        (id, set) -> {
          if (set.size() > 1) {
            String name = intent == null ? firstWrite(id) : Objects.toString(id);
            problems.add("the attempts of " + name + " carried " + set.size() + " keys: " + set);
          }
        });
    return problems;
  }

  private String firstWrite(Object identity) {
    for (Entry<Received> r : received) {
      if (r.identity().equals(identity)) {
        return r.value().operation() + " " + r.value().parameters();
      }
    }
    return String.valueOf(identity);
  }

  private static boolean isWrite(Received r) {
    String method = r.method();
    return !method.equals("GET") && !method.equals("HEAD");
  }

  private static String describe(List<Effect> list) {
    StringBuilder s = new StringBuilder();
    for (Effect e : list) {
      s.append(s.length() == 0 ? "" : ", ")
          .append(e.operation())
          .append(" -> ")
          .append(e.objectId());
    }
    return s.toString();
  }
}
