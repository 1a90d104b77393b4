package dev.saferetry.webhook;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 over a message given in parts, and matching received signatures against the
 * configured keys in constant time. Stateless; thread-safe.
 */
final class Hmac {
  static final int LENGTH = 32;

  private Hmac() {}

  /** Returns HMAC-SHA256 of the concatenated {@code parts} under {@code key}. */
  static byte[] sha256(byte[] key, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      for (byte[] part : parts) {
        mac.update(part);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      // Every Java SE runtime must provide HmacSHA256.
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /**
   * Returns whether any received signature equals the HMAC of the message under any key. Every
   * comparison runs in constant time ({@link MessageDigest#isEqual}) and all of them run, so the
   * time taken says nothing about which signature or key came close.
   */
  static boolean anyMatches(List<byte[]> keys, List<byte[]> received, byte[]... parts) {
    boolean match = false;
    for (byte[] key : keys) {
      byte[] expected = sha256(key, parts);
      for (byte[] signature : received) {
        match |= MessageDigest.isEqual(expected, signature);
      }
    }
    return match;
  }

  /** Decodes exactly 64 hex digits into 32 bytes, or returns null. */
  static byte[] fromHex(String hex) {
    if (hex.length() != LENGTH * 2) {
      return null;
    }
    byte[] out = new byte[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      int hi = Character.digit(hex.charAt(2 * i), 16);
      int lo = Character.digit(hex.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        return null;
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }
}
