package dev.saferetry.conformance;

import java.util.Locale;

/** Decides which configuration values must never be printed. Stateless and thread-safe. */
final class Redaction {
  private Redaction() {}

  static boolean isSecret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("authorization")
        || k.contains("cookie")
        || k.contains("token")
        || k.contains("secret")
        || k.contains("password")
        || k.contains("api-key")
        || k.contains("apikey");
  }
}
