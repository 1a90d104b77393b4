package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.time.Instant;

/**
 * The record payloads of format version 3 (see the package documentation). Numbers are LEB128
 * varints; a key that is a lowercase UUID is stored as its 16 bytes and a fingerprint that is
 * lowercase hex as its bytes, both restored to exactly the text given; any other key or fingerprint
 * is stored as text. States are explicit codes, never enum ordinals. Stateless.
 */
final class CompactCodec {
  static final int BEGIN = 1;
  static final int COMPLETE = 2;
  static final int ABANDON = 3;
  static final int SCOPE = 4;
  static final int SEAL = 5;

  static final int SUCCEEDED = 'S';
  static final int FAILED = 'F';

  private static final int TEXT = 0;
  private static final int UUID = 1;
  private static final int HEX = 1;
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  /** What {@link #scan} found in a payload: enough to index it without building strings. */
  static final class Scanned {
    int type;
    int scopeId;
    int idStart;
    int idLength;
    long expiresSecond;
    int expiresNano;
    long previousGeneration;
    IntentScope scope;

    /** Whether the record is completed and expired at {@code now}. */
    boolean completedAndExpired(Instant now) {
      if (type != COMPLETE) {
        return false;
      }
      long second = now.getEpochSecond();
      return second > expiresSecond || (second == expiresSecond && now.getNano() >= expiresNano);
    }
  }

  private CompactCodec() {}

  static void scope(FrameBuffer out, int id, IntentScope scope) {
    out.open();
    out.putByte(SCOPE).putVarlong(id).putText(scope.tenant()).putText(scope.operation());
    out.close();
  }

  static void begin(FrameBuffer out, int scopeId, IntentRecord r) {
    out.open();
    record(out.putByte(BEGIN), scopeId, r);
    out.close();
  }

  static void complete(FrameBuffer out, int scopeId, IntentRecord r) {
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

  static void abandon(FrameBuffer out, int scopeId, String intentId) {
    out.open();
    out.putByte(ABANDON).putVarlong(scopeId).putText(intentId);
    out.close();
  }

  /** The last record a compaction writes: the file is complete and replaces {@code previous}. */
  static void seal(FrameBuffer out, long previous) {
    out.open();
    out.putByte(SEAL).putLong(previous);
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
   * Reads what opening a log needs of a payload: its type and, for an intent's record, its scope
   * and the bytes of its id; a scope or seal record is read whole. The other fields are checked
   * when the record is decoded: the frame's checksum already vouches for the bytes.
   *
   * @throws IllegalArgumentException if the payload is not a valid record of this version
   */
  static Scanned scanForIndex(PayloadReader in, Scanned out) {
    out.type = in.u8();
    if (out.type == BEGIN || out.type == COMPLETE || out.type == ABANDON) {
      out.scopeId = in.varint(Integer.MAX_VALUE);
      out.idStart = in.textStart();
      out.idLength = in.position() - out.idStart;
      return out;
    }
    return scan(in.reset(in.data(), in.position() - 1, in.remaining() + 1), out);
  }

  /**
   * Checks every field of a payload and notes what indexing needs.
   *
   * @throws IllegalArgumentException if the payload is not a valid record of this version
   */
  static Scanned scan(PayloadReader in, Scanned out) {
    out.type = in.u8();
    switch (out.type) {
      case BEGIN, COMPLETE, ABANDON -> {
        out.scopeId = in.varint(Integer.MAX_VALUE);
        out.idStart = in.validTextStart();
        out.idLength = in.position() - out.idStart;
        if (out.type != ABANDON) {
          scanRecordRest(in, out);
        }
      }
      case SCOPE -> {
        out.scopeId = in.varint(Integer.MAX_VALUE);
        out.scope = new IntentScope(in.text(), in.text());
      }
      case SEAL -> out.previousGeneration = in.int64();
      default -> throw new IllegalArgumentException("unknown record type " + out.type);
    }
    in.expectEnd();
    return out;
  }

  private static void scanRecordRest(PayloadReader in, Scanned out) {
    skipKey(in);
    skipFingerprint(in);
    long createdSecond = unzigzag(in.varlong());
    nanos(in);
    long delta = in.varlong();
    if (delta < 0) {
      throw new IllegalArgumentException("an expiry before the creation");
    }
    out.expiresSecond = createdSecond + delta;
    out.expiresNano = nanos(in);
    if (out.type == COMPLETE) {
      state(in.u8());
      in.varlong();
      if (flag(in.u8())) {
        in.skipText();
      }
    }
  }

  private static void skipKey(PayloadReader in) {
    int tag = in.u8();
    if (tag == UUID) {
      in.skip(16);
    } else if (tag == TEXT) {
      in.skipText();
    } else {
      throw new IllegalArgumentException("unknown key form " + tag);
    }
  }

  private static void skipFingerprint(PayloadReader in) {
    int tag = in.u8();
    if (tag == HEX) {
      in.skip(in.varint(512));
    } else if (tag == TEXT) {
      in.skipText();
    } else {
      throw new IllegalArgumentException("unknown fingerprint form " + tag);
    }
  }

  /**
   * Decodes a begin or completion payload into the record it holds.
   *
   * @throws IllegalArgumentException if the payload is not such a record, or names an unknown scope
   */
  static IntentRecord decode(PayloadReader in, Scopes scopes) {
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

  private static IntentState state(int code) {
    return switch (code) {
      case SUCCEEDED -> IntentState.SUCCEEDED;
      case FAILED -> IntentState.FAILED;
      default -> throw new IllegalArgumentException("unknown completion state code " + code);
    };
  }

  private static boolean flag(int value) {
    if (value > 1) {
      throw new IllegalArgumentException("a flag that is neither 0 nor 1: " + value);
    }
    return value == 1;
  }

  private static int nanos(PayloadReader in) {
    return in.varint(999_999_999);
  }

  static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  static long unzigzag(long value) {
    return (value >>> 1) ^ -(value & 1);
  }
}
