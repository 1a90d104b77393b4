package dev.saferetry.internal.filestore.record;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.internal.filestore.log.FrameBuffer;
import dev.saferetry.internal.filestore.log.PayloadReader;
import java.time.Instant;

/**
 * The record payloads of format version 3 (see the package documentation). Numbers are LEB128
 * varints; a key that is a lowercase UUID is stored as its 16 bytes and a fingerprint that is
 * lowercase hex as its bytes, both restored to exactly the text given; any other key or fingerprint
 * is stored as text. States are explicit codes, never enum ordinals. Stateless.
 */
public final class RecordCodec {
  /** The type of a begin record: a new pending intent. */
  public static final int BEGIN = 1;

  /** The type of a completion record, which holds the completed intent in full. */
  public static final int COMPLETE = 2;

  /** The type of an abandon record: the intent is forgotten. */
  public static final int ABANDON = 3;

  /** The type of a scope record, which numbers a scope. */
  public static final int SCOPE = 4;

  /** The type of the seal, the last record a compaction writes. */
  public static final int SEAL = 5;

  static final int SUCCEEDED = 'S';
  static final int FAILED = 'F';

  static final int TEXT = 0;
  static final int UUID = 1;
  static final int HEX = 1;
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private RecordCodec() {}

  /** Writes a frame numbering {@code scope} as {@code id}. */
  public static void scope(FrameBuffer out, int id, IntentScope scope) {
    out.open();
    out.putByte(SCOPE).putVarlong(id).putText(scope.tenant()).putText(scope.operation());
    out.close();
  }

  /** Writes a frame beginning the pending intent {@code r}, of scope {@code scopeId}. */
  public static void begin(FrameBuffer out, int scopeId, IntentRecord r) {
    out.open();
    record(out.putByte(BEGIN), scopeId, r);
    out.close();
  }

  /** Writes a frame holding the completed intent {@code r} in full. */
  public static void complete(FrameBuffer out, int scopeId, IntentRecord r) {
    out.open();
    record(out.putByte(COMPLETE), scopeId, r);
    out.putByte(r.state() == IntentState.SUCCEEDED ? SUCCEEDED : FAILED);
    out.putVarlong(zigzag(r.status()));
    out.putByte(r.resourceId() == null ? 0 : 1);
    if (r.resourceId() != null) {
      out.putText(r.resourceId());
    }
    out.close();
  }

  /** Writes a frame forgetting the intent {@code intentId} of scope {@code scopeId}. */
  public static void abandon(FrameBuffer out, int scopeId, String intentId) {
    out.open();
    out.putByte(ABANDON).putVarlong(scopeId).putText(intentId);
    out.close();
  }

  /**
   * The last record a compaction writes: the file is complete and replaces {@code previous}. It
   * keeps the store's time floor (the latest creation time recorded, null if none), which the
   * records a compaction drops can no longer show.
   */
  public static void seal(FrameBuffer out, long previous, Instant floor) {
    out.open();
    out.putByte(SEAL).putLong(previous);
    if (floor != null) {
      out.putVarlong(zigzag(floor.getEpochSecond())).putVarlong(floor.getNano());
    }
    out.close();
  }

  private static void record(FrameBuffer out, int scopeId, IntentRecord r) {
    out.putVarlong(scopeId).putText(r.intentId());
    String key = r.key().value();
    if (isLowercaseUuid(key)) {
      out.putByte(UUID);
      int i = 0;
      while (i < key.length()) { // the digits between dashes come in pairs
        if (key.charAt(i) == '-') {
          i++;
        } else {
          out.putByte(
              Character.digit(key.charAt(i), 16) << 4 | Character.digit(key.charAt(i + 1), 16));
          i += 2;
        }
      }
    } else {
      out.putByte(TEXT).putText(key);
    }
    writeFingerprint(out, r.fingerprint());
    Instant created = r.createdAt();
    Instant expires = r.expiresAt();
    out.putVarlong(zigzag(created.getEpochSecond())).putVarlong(created.getNano());
    out.putVarlong(expires.getEpochSecond() - created.getEpochSecond())
        .putVarlong(expires.getNano());
  }

  private static void writeFingerprint(FrameBuffer out, String fingerprint) {
    if (isLowercaseHex(fingerprint)) {
      out.putByte(HEX).putVarlong(fingerprint.length() / 2);
      for (int i = 0; i < fingerprint.length(); i += 2) {
        out.putByte(
            Character.digit(fingerprint.charAt(i), 16) << 4
                | Character.digit(fingerprint.charAt(i + 1), 16));
      }
    } else {
      out.putByte(TEXT).putText(fingerprint);
    }
  }

  static boolean isLowercaseUuid(String key) {
    if (key.length() != 36) {
      return false;
    }
    for (int i = 0; i < 36; i++) {
      char c = key.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : !isLowerHexDigit(c)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLowercaseHex(String text) {
    if (text.isEmpty() || text.length() % 2 != 0 || text.length() > 1024) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (!isLowerHexDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLowerHexDigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  }

  /**
   * Decodes a begin or completion payload into the record it holds.
   *
   * @throws IllegalArgumentException if the payload is not such a record, or names an unknown scope
   */
  public static IntentRecord decode(PayloadReader in, Scopes scopes) {
    int type = in.u8();
    if (type != BEGIN && type != COMPLETE) {
      throw new IllegalArgumentException("record type " + type + " holds no intent");
    }
    IntentScope scope = scopes.get(in.varint(Integer.MAX_VALUE));
    String intentId = in.text();
    IdempotencyKey key = IdempotencyKey.of(readKey(in));
    String fingerprint = readFingerprint(in);
    long createdSecond = unzigzag(in.varlong());
    Instant created = Instant.ofEpochSecond(createdSecond, nanos(in));
    Instant expires = Instant.ofEpochSecond(Math.addExact(createdSecond, in.varlong()), nanos(in));
    IntentState state = IntentState.PENDING;
    int status = 0;
    String resourceId = null;
    if (type == COMPLETE) {
      state = state(in.u8());
      status = Math.toIntExact(unzigzag(in.varlong()));
      resourceId = flag(in.u8()) ? in.text() : null;
    }
    in.expectEnd();
    return new IntentRecord(
        scope, intentId, key, fingerprint, state, created, expires, status, resourceId);
  }

  private static String readKey(PayloadReader in) {
    int tag = in.u8();
    if (tag == TEXT) {
      return in.text();
    }
    if (tag != UUID) {
      throw new IllegalArgumentException("unknown key form " + tag);
    }
    char[] text = new char[36];
    int at = in.skip(16);
    int c = 0;
    for (int i = 0; i < 16; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10) {
        text[c++] = '-';
      }
      int b = in.byteAt(at + i) & 0xFF;
      text[c++] = DIGITS[b >> 4];
      text[c++] = DIGITS[b & 0xF];
    }
    return new String(text);
  }

  private static String readFingerprint(PayloadReader in) {
    int tag = in.u8();
    if (tag == TEXT) {
      return in.text();
    }
    if (tag != HEX) {
      throw new IllegalArgumentException("unknown fingerprint form " + tag);
    }
    int count = in.varint(512);
    int at = in.skip(count);
    char[] text = new char[count * 2];
    for (int i = 0; i < count; i++) {
      int b = in.byteAt(at + i) & 0xFF;
      text[2 * i] = DIGITS[b >> 4];
      text[2 * i + 1] = DIGITS[b & 0xF];
    }
    return new String(text);
  }

  static IntentState state(int code) {
    return switch (code) {
      case SUCCEEDED -> IntentState.SUCCEEDED;
      case FAILED -> IntentState.FAILED;
      default -> throw new IllegalArgumentException("unknown completion state code " + code);
    };
  }

  static boolean flag(int value) {
    if (value > 1) {
      throw new IllegalArgumentException("a flag that is neither 0 nor 1: " + value);
    }
    return value == 1;
  }

  static int nanos(PayloadReader in) {
    return in.varint(999_999_999);
  }

  static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  static long unzigzag(long value) {
    return (value >>> 1) ^ -(value & 1);
  }
}
