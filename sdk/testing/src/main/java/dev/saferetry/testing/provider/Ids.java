package dev.saferetry.testing.provider;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Object and request ids in Stripe's style ({@code ch_} and 24 letters and digits), from a counter
 * mixed so that consecutive ids look unrelated: one provider hands out the same ids in the same
 * order every run. Thread-safe.
 */
final class Ids {
  private static final char[] ALPHABET =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
  private final AtomicLong next = new AtomicLong();

  String next(String prefix) {
    long n = next.incrementAndGet();
    char[] tail = new char[24];
    long mixed = mix(n);
    for (int i = 0; i < 12; i++) {
      tail[i] = ALPHABET[(int) Long.remainderUnsigned(mixed >>> (i * 5), ALPHABET.length)];
    }
    long count = n; // the last 12 characters are the counter itself: ids never repeat
    for (int i = tail.length - 1; i >= 12; i--) {
      tail[i] = ALPHABET[(int) (count % ALPHABET.length)];
      count /= ALPHABET.length;
    }
    return prefix + '_' + new String(tail);
  }

  void reset() {
    next.set(0);
  }

  /** SplitMix64's finaliser: a bijection, so distinct counters give distinct ids. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
