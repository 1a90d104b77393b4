package dev.saferetry.internal.filestore.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The 64-bit hash an intent is indexed by, over its scope number and the UTF-8 bytes of its intent
 * id, eight bytes at a time, then a finaliser that spreads the bits. Never 0 (0 marks an empty
 * slot). Equal hashes are only candidates: the index always compares the stored id itself.
 * Stateless.
 */
public final class IntentHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long M1 = 0x9E3779B97F4A7C15L;
  private static final long M2 = 0xC2B2AE3D27D4EB4FL;

  private IntentHash() {}

  /** The hash of an id whose UTF-8 bytes are {@code bytes[start, start + length)}. */
  public static long of(int scopeId, byte[] bytes, int start, int length) {
    long h = (scopeId + 1L) * M1 ^ length;
    int i = start;
    int end = start + length;
    for (; i + 8 <= end; i += 8) {
      h = Long.rotateLeft((h ^ (long) LONGS.get(bytes, i)) * M2, 29);
    }
    long tail = 0;
    for (int shift = 0; i < end; i++, shift += 8) {
      tail |= (bytes[i] & 0xFFL) << shift;
    }
    h = Long.rotateLeft((h ^ tail) * M2, 29);
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == 0 ? 1 : h;
  }

  /**
   * The hash of {@code intentId}, as of its UTF-8 bytes. An unpaired surrogate (which no stored id
   * has) is encoded as {@code '?'}: it can only lead to a candidate that the comparison rejects.
   */
  static long of(int scopeId, String intentId) {
    byte[] utf8 = intentId.getBytes(StandardCharsets.UTF_8);
    return of(scopeId, utf8, 0, utf8.length);
  }
}
