package dev.saferetry.internal.store;

/**
 * The 64-bit hash an intent is indexed by: FNV-1a over its scope number and the UTF-8 bytes of its
 * intent id, then a finaliser that spreads the bits. Computed the same from a record's bytes and
 * from a {@code String}, without encoding it. Never 0 (0 marks an empty slot). Equal hashes are
 * only candidates: the index always compares the stored id itself. Stateless.
 */
final class IntentHash {
  private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
  private static final long PRIME = 0x100000001b3L;

  private IntentHash() {}

  /** The hash of an id whose UTF-8 bytes are {@code bytes[start, start + length)}. */
  static long of(int scopeId, byte[] bytes, int start, int length) {
    long h = seed(scopeId);
    for (int i = start; i < start + length; i++) {
      h = (h ^ (bytes[i] & 0xFF)) * PRIME;
    }
    return finish(h);
  }

  /**
   * The hash of {@code intentId}, as if of its UTF-8 bytes. An unpaired surrogate (which no stored
   * id has) is hashed as {@code '?'}: it can only lead to a candidate that the comparison rejects.
   */
  static long of(int scopeId, String intentId) {
    long h = seed(scopeId);
    for (int i = 0; i < intentId.length(); i++) {
      char c = intentId.charAt(i);
      if (c < 0x80) {
        h = (h ^ c) * PRIME;
      } else if (c < 0x800) {
        h = (h ^ (0xC0 | (c >> 6))) * PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * PRIME;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < intentId.length()
          && Character.isLowSurrogate(intentId.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, intentId.charAt(++i));
        h = (h ^ (0xF0 | (cp >> 18))) * PRIME;
        h = (h ^ (0x80 | ((cp >> 12) & 0x3F))) * PRIME;
        h = (h ^ (0x80 | ((cp >> 6) & 0x3F))) * PRIME;
        h = (h ^ (0x80 | (cp & 0x3F))) * PRIME;
      } else if (Character.isSurrogate(c)) {
        h = (h ^ '?') * PRIME;
      } else {
        h = (h ^ (0xE0 | (c >> 12))) * PRIME;
        h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * PRIME;
      }
    }
    return finish(h);
  }

  private static long seed(int scopeId) {
    long h = OFFSET_BASIS;
    for (int shift = 24; shift >= 0; shift -= 8) {
      h = (h ^ ((scopeId >>> shift) & 0xFF)) * PRIME;
    }
    return h;
  }

  private static long finish(long hash) {
    long h = hash;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }
}
