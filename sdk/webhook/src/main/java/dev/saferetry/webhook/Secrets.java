package dev.saferetry.webhook;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Turns configured secrets into HMAC keys, validating them without ever quoting them: errors name
 * the position ({@code secrets[1]}), not the value. Stateless; thread-safe.
 */
final class Secrets {
  static final int MAX_SECRETS = 16;
  private static final String WHSEC = "whsec_";

  private Secrets() {}

  /** The one secret, as a list of secrets. */
  static List<String> one(String secret) {
    return List.of(Objects.requireNonNull(secret, "secret"));
  }

  /** Keys are the secrets' UTF-8 bytes, as Stripe and GitHub use them. */
  static List<byte[]> utf8(List<String> secrets) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < checkCount(secrets).size(); i++) {
      keys.add(checkText(secrets.get(i), i).getBytes(StandardCharsets.UTF_8));
    }
    return List.copyOf(keys);
  }

  /**
   * Keys are the base64 bytes after the {@code whsec_} prefix (the prefix may be left out), 24 to
   * 64 bytes as the Standard Webhooks specification requires of symmetric secrets.
   */
  static List<byte[]> standard(List<String> secrets) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < checkCount(secrets).size(); i++) {
      String text = checkText(secrets.get(i), i);
      String encoded = text.startsWith(WHSEC) ? text.substring(WHSEC.length()) : text;
      byte[] key;
      try {
        key = Base64.getDecoder().decode(encoded);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "secrets[" + i + "] is not whsec_ followed by base64", null);
      }
      if (key.length < 24 || key.length > 64) {
        throw new IllegalArgumentException(
            "secrets[" + i + "] must decode to 24..64 bytes, decodes to " + key.length);
      }
      keys.add(key);
    }
    return List.copyOf(keys);
  }

  private static List<String> checkCount(List<String> secrets) {
    Objects.requireNonNull(secrets, "secrets");
    if (secrets.isEmpty() || secrets.size() > MAX_SECRETS) {
      throw new IllegalArgumentException("secrets must hold 1.." + MAX_SECRETS + " secrets");
    }
    return secrets;
  }

  private static String checkText(String secret, int i) {
    if (secret == null) {
      throw new NullPointerException("secrets[" + i + "]");
    }
    if (secret.isEmpty()) {
      throw new IllegalArgumentException("secrets[" + i + "] is empty");
    }
    if (!secret.strip().equals(secret)) {
      throw new IllegalArgumentException("secrets[" + i + "] has surrounding whitespace");
    }
    return secret;
  }
}
