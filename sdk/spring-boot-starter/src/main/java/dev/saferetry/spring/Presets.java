package dev.saferetry.spring;

import dev.saferetry.ProviderPreset;
import java.util.Locale;
import java.util.stream.Collectors;

/** Finds a core preset by the name a property gives, ignoring case and punctuation. */
final class Presets {
  private Presets() {}

  static ProviderPreset named(String clientName, String name) {
    String wanted = normalize(name);
    for (ProviderPreset p : ProviderPreset.all()) {
      if (normalize(p.name()).equals(wanted)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "saferetry.clients."
            + clientName
            + ".preset: unknown preset '"
            + name
            + "'; known: "
            + ProviderPreset.all().stream()
                .map(ProviderPreset::name)
                .collect(Collectors.joining(", ")));
  }

  private static String normalize(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }
}
