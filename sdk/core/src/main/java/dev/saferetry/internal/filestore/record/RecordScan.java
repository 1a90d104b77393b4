package dev.saferetry.internal.filestore.record;

import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.internal.filestore.log.PayloadReader;
import java.time.Instant;

/**
 * What indexing and compacting need of a record of format version 3, read without building strings:
 * its type, scope number, where its intent id's bytes are, its expiry, and for scope and seal
 * records their content. {@link #scan} checks every field on the way; {@link #scanForIndex} reads
 * only what opening needs. Reusable; not thread-safe.
 */
public final class RecordScan {
  private int type;
  private int scopeId;
  private int idStart;
  private int idLength;
  private long expiresSecond;
  private int expiresNano;
  private long previousGeneration;
  private IntentScope scope;
  private boolean hasTime;
  private long timeSecond;
  private int timeNano;

  /** The record's type: one of the type codes of {@link RecordCodec}. */
  public int type() {
    return type;
  }

  /** The number of the scope an intent's record names, or that a scope record defines. */
  public int scopeId() {
    return scopeId;
  }

  /** Where the UTF-8 bytes of an intent's id start in the data read. */
  public int idStart() {
    return idStart;
  }

  /** How many UTF-8 bytes an intent's id has. */
  public int idLength() {
    return idLength;
  }

  /** The scope a scope record defines. */
  public IntentScope scope() {
    return scope;
  }

  /** The generation a seal says its file replaced. */
  public long previousGeneration() {
    return previousGeneration;
  }

  /** Whether the record holds a time (an intent's creation, a seal's floor). */
  public boolean hasTime() {
    return hasTime;
  }

  /** The second of that time. */
  public long timeSecond() {
    return timeSecond;
  }

  /** The nanosecond of that time. */
  public int timeNano() {
    return timeNano;
  }

  /** Whether the record is completed and expired at {@code now}. */
  public boolean completedAndExpired(Instant now) {
    if (type != RecordCodec.COMPLETE) {
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
  public static RecordScan scanForIndex(PayloadReader in, RecordScan out) {
    out.type = in.u8();
    out.hasTime = false;
    if (out.type == RecordCodec.BEGIN
        || out.type == RecordCodec.COMPLETE
        || out.type == RecordCodec.ABANDON) {
      out.scopeId = in.varint(Integer.MAX_VALUE);
      out.idStart = in.textStart();
      out.idLength = in.position() - out.idStart;
      if (out.type != RecordCodec.ABANDON) {
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
  public static RecordScan scan(PayloadReader in, RecordScan out) {
    out.type = in.u8();
    out.hasTime = false;
    switch (out.type) {
      case RecordCodec.BEGIN, RecordCodec.COMPLETE, RecordCodec.ABANDON -> {
        out.scopeId = in.varint(Integer.MAX_VALUE);
        out.idStart = in.validTextStart();
        out.idLength = in.position() - out.idStart;
        if (out.type != RecordCodec.ABANDON) {
          scanRecordRest(in, out);
        }
      }
      case RecordCodec.SCOPE -> {
        out.scopeId = in.varint(Integer.MAX_VALUE);
        out.scope = new IntentScope(in.text(), in.text());
      }
      case RecordCodec.SEAL -> {
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
    out.expiresNano = RecordCodec.nanos(in);
    if (out.type == RecordCodec.COMPLETE) {
      RecordCodec.state(in.u8());
      in.varlong();
      if (RecordCodec.flag(in.u8())) {
        in.skipText();
      }
    }
  }

  private static void readTime(PayloadReader in, RecordScan out) {
    out.timeSecond = RecordCodec.unzigzag(in.varlong());
    out.timeNano = RecordCodec.nanos(in);
    out.hasTime = true;
  }

  private static void skipKey(PayloadReader in) {
    int tag = in.u8();
    if (tag == RecordCodec.UUID) {
      in.skip(16);
    } else if (tag == RecordCodec.TEXT) {
      in.skipText();
    } else {
      throw new IllegalArgumentException("unknown key form " + tag);
    }
  }

  private static void skipFingerprint(PayloadReader in) {
    int tag = in.u8();
    if (tag == RecordCodec.HEX) {
      in.skip(in.varint(512));
    } else if (tag == RecordCodec.TEXT) {
      in.skipText();
    } else {
      throw new IllegalArgumentException("unknown fingerprint form " + tag);
    }
  }
}
