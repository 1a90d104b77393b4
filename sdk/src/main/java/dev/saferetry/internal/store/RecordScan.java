package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IntentScope;
import java.time.Instant;

/**
 * What indexing and compacting need of a record of format version 3, read without building strings:
 * its type, scope number, where its intent id's bytes are, its expiry, and for scope and seal
 * records their content. {@link #scan} checks every field on the way; {@link #scanForIndex} reads
 * only what opening needs. Reusable; not thread-safe.
 */
final class RecordScan {
  int type;
  int scopeId;
  int idStart;
  int idLength;
  long expiresSecond;
  int expiresNano;
  long previousGeneration;
  IntentScope scope;

  /** Whether the record holds a time (an intent's creation, a seal's floor), and which. */
  boolean hasTime;

  long timeSecond;
  int timeNano;

  /** Whether the record is completed and expired at {@code now}. */
  boolean completedAndExpired(Instant now) {
    if (type != CompactCodec.COMPLETE) {
      return false;
    }
    long second = now.getEpochSecond();
    return second > expiresSecond || (second == expiresSecond && now.getNano() >= expiresNano);
  }

  /**
   * Reads what opening a log needs of a payload: its type and, for an intent's record, its scope
   * and the bytes of its id; a scope or seal record is read whole. The other fields are checked
   * when the record is decoded: the frame's checksum already vouches for the bytes.
   *
   * @throws IllegalArgumentException if the payload is not a valid record of this version
   */
  static RecordScan scanForIndex(PayloadReader in, RecordScan out) {
    out.type = in.u8();
    out.hasTime = false;
    if (out.type == CompactCodec.BEGIN
        || out.type == CompactCodec.COMPLETE
        || out.type == CompactCodec.ABANDON) {
      out.scopeId = in.varint(Integer.MAX_VALUE);
      out.idStart = in.textStart();
      out.idLength = in.position() - out.idStart;
      if (out.type != CompactCodec.ABANDON) {
        skipKey(in);
        skipFingerprint(in);
        readTime(in, out); // the store's time floor is the latest of these
      }
      return out;
    }
    return scan(in.reset(in.data(), in.position() - 1, in.remaining() + 1), out);
  }

  /**
   * Checks every field of a payload and notes what indexing needs.
   *
   * @throws IllegalArgumentException if the payload is not a valid record of this version
   */
  static RecordScan scan(PayloadReader in, RecordScan out) {
    out.type = in.u8();
    out.hasTime = false;
    switch (out.type) {
      case CompactCodec.BEGIN, CompactCodec.COMPLETE, CompactCodec.ABANDON -> {
        out.scopeId = in.varint(Integer.MAX_VALUE);
        out.idStart = in.validTextStart();
        out.idLength = in.position() - out.idStart;
        if (out.type != CompactCodec.ABANDON) {
          scanRecordRest(in, out);
        }
      }
      case CompactCodec.SCOPE -> {
        out.scopeId = in.varint(Integer.MAX_VALUE);
        out.scope = new IntentScope(in.text(), in.text());
      }
      case CompactCodec.SEAL -> {
        out.previousGeneration = in.int64();
        if (in.remaining() > 0) {
          readTime(in, out); // the floor, in seals written since it was kept
        }
      }
      default -> throw new IllegalArgumentException("unknown record type " + out.type);
    }
    in.expectEnd();
    return out;
  }

  private static void scanRecordRest(PayloadReader in, RecordScan out) {
    skipKey(in);
    skipFingerprint(in);
    readTime(in, out);
    long createdSecond = out.timeSecond;
    long delta = in.varlong();
    if (delta < 0 || createdSecond + delta < createdSecond) {
      throw new IllegalArgumentException("an expiry before the creation, or out of range");
    }
    out.expiresSecond = createdSecond + delta;
    out.expiresNano = CompactCodec.nanos(in);
    if (out.type == CompactCodec.COMPLETE) {
      CompactCodec.state(in.u8());
      in.varlong();
      if (CompactCodec.flag(in.u8())) {
        in.skipText();
      }
    }
  }

  private static void readTime(PayloadReader in, RecordScan out) {
    out.timeSecond = CompactCodec.unzigzag(in.varlong());
    out.timeNano = CompactCodec.nanos(in);
    out.hasTime = true;
  }

  private static void skipKey(PayloadReader in) {
    int tag = in.u8();
    if (tag == CompactCodec.UUID) {
      in.skip(16);
    } else if (tag == CompactCodec.TEXT) {
      in.skipText();
    } else {
      throw new IllegalArgumentException("unknown key form " + tag);
    }
  }

  private static void skipFingerprint(PayloadReader in) {
    int tag = in.u8();
    if (tag == CompactCodec.HEX) {
      in.skip(in.varint(512));
    } else if (tag == CompactCodec.TEXT) {
      in.skipText();
    } else {
      throw new IllegalArgumentException("unknown fingerprint form " + tag);
    }
  }
}
