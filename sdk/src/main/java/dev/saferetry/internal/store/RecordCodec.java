package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The binary payload of each {@link LogEntry}. A hand-written encoding keeps the format stable,
 * compact and independent of any library's defaults. States are written as explicit codes, never as
 * enum ordinals, so reordering {@link IntentState} cannot change what a file means. Stateless.
 */
final class RecordCodec {
  static final byte BEGIN = 1;
  static final byte COMPLETE = 2;
  static final byte ABANDON = 3;

  /** State codes of format version 2. */
  static final byte SUCCEEDED = 'S';

  static final byte FAILED = 'F';

  /** The states of format version 1, which wrote the enum's ordinal at that time. */
  private static final byte V1_SUCCEEDED = 1;

  private static final byte V1_FAILED = 2;

  private RecordCodec() {}

  /**
   * Encodes one entry in the current format.
   *
   * @throws IllegalArgumentException if a text field has no exact UTF-8 form
   */
  static byte[] encode(LogEntry entry) {
    StrictUtf8 text = new StrictUtf8();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(192);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      if (entry instanceof LogEntry.Begin begin) {
        IntentRecord r = begin.record();
        out.writeByte(BEGIN);
        writeId(out, text, entry);
        text.write(out, r.key().value());
        text.write(out, r.fingerprint());
        writeInstant(out, r.createdAt());
        writeInstant(out, r.expiresAt());
      } else if (entry instanceof LogEntry.Complete c) {
        out.writeByte(COMPLETE);
        writeId(out, text, entry);
        text.write(out, c.key().value());
        out.writeByte(stateCode(c.state()));
        out.writeInt(c.status());
        out.writeBoolean(c.resourceId() != null);
        if (c.resourceId() != null) {
          text.write(out, c.resourceId());
        }
      } else {
        out.writeByte(ABANDON);
        writeId(out, text, entry);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array cannot fail
    }
    return bytes.toByteArray();
  }

  private static byte stateCode(IntentState state) {
    return switch (state) {
      case SUCCEEDED -> SUCCEEDED;
      case FAILED -> FAILED;
      case PENDING -> throw new IllegalArgumentException("a completion must have an outcome");
    };
  }

  /**
   * Decodes one payload written in format {@code version}.
   *
   * @throws IllegalArgumentException (or a {@link java.nio.BufferUnderflowException}) if the
   *     payload is not a valid record
   */
  static LogEntry decode(ByteBuffer in, int version) {
    StrictUtf8 text = new StrictUtf8();
    byte type = in.get();
    IntentScope scope = new IntentScope(text.read(in), text.read(in));
    String intentId = text.read(in);
    LogEntry entry;
    switch (type) {
      case BEGIN -> {
        IdempotencyKey key = IdempotencyKey.of(text.read(in));
        String fingerprint = text.read(in);
        Instant created = readInstant(in);
        Instant expires = readInstant(in);
        entry =
            new LogEntry.Begin(
                new IntentRecord(
                    scope,
                    intentId,
                    key,
                    fingerprint,
                    IntentState.PENDING,
                    created,
                    expires,
                    0,
                    null));
      }
      case COMPLETE -> {
        IdempotencyKey key = IdempotencyKey.of(text.read(in));
        IntentState state = state(in.get(), version);
        int status = in.getInt();
        String resourceId = in.get() != 0 ? text.read(in) : null;
        entry = new LogEntry.Complete(scope, intentId, key, state, status, resourceId);
      }
      case ABANDON -> entry = new LogEntry.Abandon(scope, intentId);
      default -> throw new IllegalArgumentException("unknown record type " + type);
    }
    if (in.hasRemaining()) {
      throw new IllegalArgumentException(in.remaining() + " unexpected trailing bytes");
    }
    return entry;
  }

  private static IntentState state(byte code, int version) {
    byte succeeded = version == LogFormat.VERSION_1 ? V1_SUCCEEDED : SUCCEEDED;
    byte failed = version == LogFormat.VERSION_1 ? V1_FAILED : FAILED;
    if (code == succeeded) {
      return IntentState.SUCCEEDED;
    }
    if (code == failed) {
      return IntentState.FAILED;
    }
    throw new IllegalArgumentException("unknown completion state code " + code);
  }

  private static void writeId(DataOutputStream out, StrictUtf8 text, LogEntry entry)
      throws IOException {
    text.write(out, entry.scope().tenant());
    text.write(out, entry.scope().operation());
    text.write(out, entry.intentId());
  }

  private static void writeInstant(DataOutputStream out, Instant instant) throws IOException {
    out.writeLong(instant.getEpochSecond());
    out.writeInt(instant.getNano());
  }

  private static Instant readInstant(ByteBuffer in) {
    return Instant.ofEpochSecond(in.getLong(), in.getInt());
  }
}
