package dev.saferetry.conformance.receiver;

import com.sun.net.httpserver.Headers;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The fixture receivers' own signature check (Stripe or Standard Webhooks), written from the
 * providers' documentation; returns why a delivery is refused, or null when it verifies.
 */
final class FixtureSignatures {
  private final boolean stripe;
  private final byte[] key;
  private final long toleranceSeconds;

  FixtureSignatures(String scheme, String secret, long toleranceSeconds) {
    this.stripe = scheme.equals("stripe");
    this.key =
        stripe
            ? secret.getBytes(StandardCharsets.UTF_8)
            : Base64.getDecoder().decode(secret.substring("whsec_".length()));
    this.toleranceSeconds = toleranceSeconds;
  }

  boolean idInHeader() {
    return !stripe;
  }

  /** Null when the delivery verifies; else the reason. {@code checkTime} off ignores staleness. */
  String refusal(byte[] body, Headers h, boolean checkTime) {
    String t;
    boolean matches;
    if (stripe) {
      String header = h.getFirst("Stripe-Signature");
      if (header == null) {
        return "no signature";
      }
      t = null;
      List<String> v1 = new ArrayList<>();
      for (String part : header.split(",", -1)) {
        int eq = part.indexOf('=');
        if (eq <= 0) {
          return "malformed";
        }
        String k = part.substring(0, eq).strip();
        String v = part.substring(eq + 1).strip();
        if (k.equals("t")) {
          t = v;
        } else if (k.equals("v1")) {
          v1.add(v);
        }
      }
      String expected = t == null ? "" : HexFormat.of().formatHex(mac(t, body));
      matches = v1.stream().anyMatch(v -> equal(v, expected));
    } else {
      String id = h.getFirst("webhook-id");
      t = h.getFirst("webhook-timestamp");
      String signatures = h.getFirst("webhook-signature");
      if (signatures == null) {
        return "no signature";
      }
      if (id == null || t == null) {
        return "malformed";
      }
      String expected = "v1," + Base64.getEncoder().encodeToString(mac(id + "." + t, body));
      matches = false;
      for (String s : signatures.split(" ")) {
        matches |= equal(s, expected);
      }
    }
    if (t == null || !t.matches("\\d{1,12}")) {
      return "malformed";
    }
    if (!matches) {
      return "signature mismatch";
    }
    long age = System.currentTimeMillis() / 1000 - Long.parseLong(t);
    return checkTime && Math.abs(age) > toleranceSeconds ? "timestamp out of tolerance" : null;
  }

  private static boolean equal(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private byte[] mac(String prefix, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((prefix + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
