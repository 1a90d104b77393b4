package dev.saferetry.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The properties the suite reads. A property it does not know is refused before any case, naming
 * the nearest known one: a typo ({@code effects.cout}, {@code hook.fault.hangs}, {@code
 * level.replay.basc}) would otherwise leave the hook, counter or override undeclared and turn MUST
 * cases into NOT RUN, or quietly grade at the wrong level. The values of {@code cases} and {@code
 * levels} are checked the same way. Stateless and thread-safe.
 */
final class KnownProperties {
  /** Every property read by name, for both contracts. */
  static final Set<String> NAMES =
      Set.of(
          "target",
          "profile",
          "contract",
          "create.path",
          "create.payload",
          "invalid.payload",
          "id.pointer",
          "key.header",
          "key.max-length",
          "key.format",
          "require-key",
          "status.missing-key",
          "status.invalid-key",
          "status.mismatch",
          "status.in-progress",
          "mismatch.error-pointer",
          "mismatch.error-value",
          "replay.header",
          "retrieve.path",
          "second.path",
          "second.payload",
          "change.path",
          "change.payload",
          "error.path",
          "error.payload",
          "fault.status.before-commit",
          "fault.status.after-commit",
          "fault.5xx.retry",
          "scope.other-endpoint",
          "validation-failure",
          "effects.count",
          "effects.count.pointer",
          "effects.list",
          "effects.list.items",
          "effects.list.match",
          "effects.total",
          "effects.total.pointer",
          "hook.fault.reset",
          "hook.clock",
          "hook.restart",
          "hook.fail-next",
          "lock-timeout-seconds",
          "retention-seconds",
          "max-wait-seconds",
          "concurrency",
          "race-delay-millis",
          "in-flight-delay-millis",
          "read-timeout-seconds",
          "cases",
          "levels",
          "tenant2.inherit-headers",
          "webhook.path",
          "webhook.secret",
          "signature.scheme",
          "signature.tolerance-seconds",
          "payload.template",
          "event.type",
          "event.newer-type",
          "answer-within-millis");

  /** Families whose last part is the user's own: a header name. */
  private static final List<String> HEADER_PREFIXES =
      List.of("headers.", "tenant2.headers.", "hook.headers.");

  private KnownProperties() {}

  /**
   * Refuses a configuration naming a property the suite does not read, or a case or level it does
   * not have.
   *
   * @throws IllegalArgumentException naming the unknown property and the nearest known one
   */
  static void check(Map<String, String> resolved) {
    Set<String> known = knownNames();
    for (String key : new TreeSet<>(resolved.keySet())) {
      if (known.contains(key) || HEADER_PREFIXES.stream().anyMatch(p -> isHeader(key, p))) {
        continue;
      }
      throw new IllegalArgumentException(
          "unknown property "
              + key
              + " (did you mean "
              + nearest(key, candidates(key, known))
              + "?): the suite does not read it, so what it declares would be ignored");
    }
    checkCases(resolved.get("cases"), resolved.get("contract"));
    checkLevels(resolved.get("levels"));
  }

  private static boolean isHeader(String key, String prefix) {
    return key.startsWith(prefix) && key.length() > prefix.length();
  }

  /** The exact names, a fault hook per kind and a level override per case of either contract. */
  static Set<String> knownNames() {
    Set<String> known = new LinkedHashSet<>(NAMES);
    for (FaultKind kind : FaultKind.values()) {
      known.add(kind.property());
    }
    for (String id : caseIds(null)) {
      known.add("level." + id);
    }
    for (String id : caseIds(WebhookContract.NAME)) {
      known.add("level." + id);
    }
    return known;
  }

  private static List<String> candidates(String key, Set<String> known) {
    List<String> out = new ArrayList<>(known);
    int first = key.indexOf('.');
    int last = key.lastIndexOf('.');
    for (String prefix : HEADER_PREFIXES) {
      if (first > 0) {
        out.add(prefix + key.substring(first + 1));
      }
      if (last > 0 && last != first) {
        out.add(prefix + key.substring(last + 1));
      }
    }
    return out;
  }

  private static void checkCases(String cases, String contract) {
    if (cases == null || cases.isBlank()) {
      return;
    }
    List<String> ids = caseIds(contract);
    for (String raw : cases.split(",")) {
      String pattern = raw.strip();
      if (pattern.isEmpty()) {
        continue;
      }
      boolean matches =
          pattern.endsWith("*")
              ? ids.stream()
                  .anyMatch(id -> id.startsWith(pattern.substring(0, pattern.length() - 1)))
              : ids.contains(pattern);
      if (!matches) {
        throw new IllegalArgumentException(
            "cases names "
                + pattern
                + ", which matches no case (did you mean "
                + nearest(pattern.replace("*", ""), ids)
                + "?): every case would be left out as NOT RUN");
      }
    }
  }

  private static void checkLevels(String levels) {
    if (levels == null || levels.isBlank()) {
      return;
    }
    List<String> known = Arrays.stream(Level.values()).map(Enum::name).toList();
    for (String raw : levels.split(",")) {
      String level = raw.strip().toUpperCase(Locale.ROOT);
      if (!level.isEmpty() && !known.contains(level)) {
        throw new IllegalArgumentException(
            "levels names " + raw.strip() + ", which is not MUST, SHOULD or MAY");
      }
    }
  }

  private static List<String> caseIds(String contract) {
    Contract c;
    try {
      c = Contract.named(contract);
    } catch (IllegalArgumentException e) {
      return List.of(); // an unknown contract is refused with its own message
    }
    return c.cases().stream().map(CaseSpec::id).toList();
  }

  /** The candidate with the fewest edits from {@code name} (ties: the first). */
  static String nearest(String name, List<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(name.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
