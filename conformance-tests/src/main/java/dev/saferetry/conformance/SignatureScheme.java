package dev.saferetry.conformance;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the webhook-receiver contract signs deliveries, computed here from each provider's documented
 * algorithm with the JDK's HMAC, never through SafeRetry's own verifiers, so a bug there cannot
 * hide behind the same bug here.
 *
 * <ul>
 *   <li>{@code stripe}: {@code Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>} over {@code
 *       t + "." + body}, keyed with the UTF-8 bytes of the whole endpoint secret;
 *   <li>{@code standard-webhooks}: {@code webhook-id}, {@code webhook-timestamp} and {@code
 *       webhook-signature: v1,<base64 HMAC-SHA256>} over {@code id + "." + timestamp + "." + body},
 *       keyed with the base64 bytes after the secret's {@code whsec_} prefix.
 * </ul>
 *
 * Thread-safe (an enum).
 */
enum SignatureScheme {
  STRIPE("stripe") {
    @Override
    byte[] key(String secret) {
      return secret.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    Map<String, String> sign(byte[] key, String id, long t, String body) {
      String ts = Long.toString(t);
      return Map.of(
          STRIPE_HEADER, "t=" + ts + ",v1=" + HexFormat.of().formatHex(mac(key, ts, body)));
    }

    @Override
    Map<String, String> unsigned(String id, long t) {
      return Map.of();
    }

    @Override
    Map<String, Map<String, String>> malformed(byte[] key, String id, long t, String body) {
      String ts = Long.toString(t);
      String v1 = HexFormat.of().formatHex(mac(key, ts, body));
      Map<String, Map<String, String>> variants = new LinkedHashMap<>();
      variants.put("empty header", Map.of(STRIPE_HEADER, ""));
      variants.put("not key=value", Map.of(STRIPE_HEADER, "garbage"));
      variants.put("no t= timestamp", Map.of(STRIPE_HEADER, "v1=" + v1));
      variants.put("no v1= signature", Map.of(STRIPE_HEADER, "t=" + ts));
      variants.put("empty v1", Map.of(STRIPE_HEADER, "t=" + ts + ",v1="));
      variants.put(
          "v1 cut to its first half", Map.of(STRIPE_HEADER, "t=" + ts + ",v1=" + half(v1)));
      variants.put("v1 not hex", Map.of(STRIPE_HEADER, "t=" + ts + ",v1=" + "zz".repeat(32)));
      return variants;
    }

    @Override
    Map<String, String> otherScheme(byte[] key, String id, long t, String body) {
      String ts = Long.toString(t);
      return Map.of(
          STRIPE_HEADER, "t=" + ts + ",v0=" + HexFormat.of().formatHex(mac(key, ts, body)));
    }

    @Override
    String randomSecret() {
      return "whsec_" + HexFormat.of().formatHex(random(24));
    }
  },

  STANDARD_WEBHOOKS("standard-webhooks") {
    @Override
    byte[] key(String secret) {
      String encoded = secret.startsWith(WHSEC) ? secret.substring(WHSEC.length()) : secret;
      try {
        byte[] key = Base64.getDecoder().decode(encoded);
        if (key.length > 0) {
          return key;
        }
      } catch (IllegalArgumentException e) {
        // reported below without quoting the secret
      }
      throw new IllegalArgumentException(
          "webhook.secret must be whsec_ followed by base64 for signature.scheme=" + this);
    }

    @Override
    Map<String, String> sign(byte[] key, String id, long t, String body) {
      String ts = Long.toString(t);
      return headers(id, ts, "v1," + B64.encodeToString(mac(key, id + "." + ts, body)));
    }

    @Override
    Map<String, String> unsigned(String id, long t) {
      return Map.of("webhook-id", id, "webhook-timestamp", Long.toString(t));
    }

    @Override
    Map<String, Map<String, String>> malformed(byte[] key, String id, long t, String body) {
      String ts = Long.toString(t);
      String v1 = B64.encodeToString(mac(key, id + "." + ts, body));
      Map<String, Map<String, String>> variants = new LinkedHashMap<>();
      variants.put("empty webhook-signature", headers(id, ts, ""));
      variants.put("no version prefix", headers(id, ts, v1));
      variants.put("empty v1", headers(id, ts, "v1,"));
      variants.put("v1 cut to its first half", headers(id, ts, "v1," + half(v1)));
      variants.put("v1 not base64", headers(id, ts, "v1,!!!!"));
      variants.put(
          "no webhook-timestamp", Map.of("webhook-id", id, "webhook-signature", "v1," + v1));
      variants.put(
          "no webhook-id", Map.of("webhook-timestamp", ts, "webhook-signature", "v1," + v1));
      return variants;
    }

    @Override
    Map<String, String> otherScheme(byte[] key, String id, long t, String body) {
      String ts = Long.toString(t);
      return headers(id, ts, "v2," + B64.encodeToString(mac(key, id + "." + ts, body)));
    }

    @Override
    String randomSecret() {
      return WHSEC + B64.encodeToString(random(32));
    }

    private Map<String, String> headers(String id, String t, String signature) {
      return Map.of("webhook-id", id, "webhook-timestamp", t, "webhook-signature", signature);
    }
  };

  static final String STRIPE_HEADER = "Stripe-Signature";
  private static final String WHSEC = "whsec_";
  private static final Base64.Encoder B64 = Base64.getEncoder();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String name;

  SignatureScheme(String name) {
    this.name = name;
  }

  /**
   * The scheme named by {@code signature.scheme}.
   *
   * @throws IllegalArgumentException naming the known schemes
   */
  static SignatureScheme named(String name) {
    for (SignatureScheme s : values()) {
      if (s.name.equals(name == null ? "" : name.strip().toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "signature.scheme must be stripe or standard-webhooks, got " + name);
  }

  /**
   * The HMAC key of a secret.
   *
   * @throws IllegalArgumentException when the secret has the wrong form (never quoting it)
   */
  abstract byte[] key(String secret);

  /** The headers of a delivery of event {@code id} signed at {@code t} (Unix seconds). */
  abstract Map<String, String> sign(byte[] key, String id, long t, String body);

  /** The headers of a delivery carrying no signature at all. */
  abstract Map<String, String> unsigned(String id, long t);

  /** Labelled header sets whose signature cannot verify, each on its own. */
  abstract Map<String, Map<String, String>> malformed(byte[] key, String id, long t, String body);

  /** A valid HMAC under a scheme version other than {@code v1}: a downgrade. */
  abstract Map<String, String> otherScheme(byte[] key, String id, long t, String body);

  /** A fresh secret of this scheme's form, known to nobody else. */
  abstract String randomSecret();

  /**
   * Whether the event id travels in a signed header (and can be tampered with apart from the body).
   */
  boolean idInHeader() {
    return this == STANDARD_WEBHOOKS;
  }

  @Override
  public String toString() {
    return name;
  }

  static byte[] mac(byte[] key, String prefix, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal((prefix + "." + body).getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static String half(String signature) {
    return signature.substring(0, signature.length() / 2);
  }

  private static byte[] random(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
