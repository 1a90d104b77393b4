package dev.saferetry.webhook;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs test deliveries the way each provider documents it, straight on javax.crypto: never through
 * the code under test.
 */
final class Signing {
  private Signing() {}

  static byte[] hmac(byte[] key, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (byte[] part : parts) {
        all.writeBytes(part);
      }
      return mac.doFinal(all.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Stripe: hex HMAC-SHA256 of "{t}.{payload}" keyed with the whole whsec_ string's bytes. */
  static String stripeV1(String secret, long t, byte[] payload) {
    return HexFormat.of().formatHex(hmac(utf8(secret), utf8(t + "."), payload));
  }

  /** GitHub: "sha256=" + hex HMAC-SHA256 of the body keyed with the secret's bytes. */
  static String github(String secret, byte[] payload) {
    return "sha256=" + HexFormat.of().formatHex(hmac(utf8(secret), payload));
  }

  /** Standard Webhooks: "v1," + base64 HMAC-SHA256 of "{id}.{ts}.{payload}", key from whsec_. */
  static String standardV1(String whsec, String id, long ts, byte[] payload) {
    byte[] key = Base64.getDecoder().decode(whsec.substring("whsec_".length()));
    return "v1,"
        + Base64.getEncoder().encodeToString(hmac(key, utf8(id + "." + ts + "."), payload));
  }

  /** Headers in a case-insensitive map, as an HTTP server would hand them over. */
  static Map<String, List<String>> headers(String... nameValue) {
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 0; i < nameValue.length; i += 2) {
      headers.computeIfAbsent(nameValue[i], k -> new java.util.ArrayList<>()).add(nameValue[i + 1]);
    }
    return headers;
  }
}
