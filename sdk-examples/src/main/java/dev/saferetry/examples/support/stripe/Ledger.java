package dev.saferetry.examples.support.stripe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The objects of one account (the platform, or one {@code Stripe-Account}): charges newest first,
 * refunds and customers. Guarded by its own monitor; objects are JSON-ready maps.
 */
final class Ledger {
  private static final char[] ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

  final List<Map<String, Object>> charges = new ArrayList<>(); // newest first
  final Map<String, Map<String, Object>> chargesById = new HashMap<>();
  final Map<String, Map<String, Object>> refunds = new HashMap<>();
  final Map<String, Map<String, Object>> customers = new HashMap<>();

  /** Returns a new id such as {@code ch_3Nk0aZ2eZvKYlo2C1aBcDeFg}. */
  static String newId(String prefix) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    char[] tail = new char[24];
    for (int i = 0; i < tail.length; i++) {
      tail[i] = ALPHABET[r.nextInt(ALPHABET.length)];
    }
    return prefix + '_' + new String(tail);
  }
}
