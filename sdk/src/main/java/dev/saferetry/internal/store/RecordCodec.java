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
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The binary payload of each {@link LogEntry}. A hand-written encoding keeps the format stable,
 * compact and independent of any library's defaults. Stateless.
 */
final class RecordCodec {
  static final byte BEGIN = 1;
  static final byte COMPLETE = 2;
  static final byte ABANDON = 3;

  private RecordCodec() {}

  static byte[] encode(LogEntry entry) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(192);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      if (entry instanceof LogEntry.Begin begin) {
        IntentRecord r = begin.record();
        out.writeByte(BEGIN);
        writeId(out, entry);
        writeString(out, r.key().value());
        writeString(out, r.fingerprint());
        writeInstant(out, r.createdAt());
        writeInstant(out, r.expiresAt());
      } else if (entry instanceof LogEntry.Complete c) {
        out.writeByte(COMPLETE);
        writeId(out, entry);
        writeString(out, c.key().value());
        out.writeByte(c.state().ordinal());
        out.writeInt(c.status());
        out.writeBoolean(c.resourceId() != null);
        if (c.resourceId() != null) {
          writeString(out, c.resourceId());
        }
      } else {
        out.writeByte(ABANDON);
        writeId(out, entry);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array cannot fail
    }
    return bytes.toByteArray();
  }

  /**
   * Decodes one payload.
   *
   * @throws IllegalArgumentException (or a {@link java.nio.BufferUnderflowException}) if the
   *     payload is not a valid record
   */
  static LogEntry decode(ByteBuffer in) {
    byte type = in.get();
    IntentScope scope = new IntentScope(readString(in), readString(in));
    String intentId = readString(in);
    LogEntry entry;
    switch (type) {
      case BEGIN -> {
        IdempotencyKey key = IdempotencyKey.of(readString(in));
        String fingerprint = readString(in);
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
        IdempotencyKey key = IdempotencyKey.of(readString(in));
        IntentState state = IntentState.values()[in.get()];
        int status = in.getInt();
        String resourceId = in.get() != 0 ? readString(in) : null;
        if (state == IntentState.PENDING) {
          throw new IllegalArgumentException("completion without an outcome");
        }
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

  private static void writeId(DataOutputStream out, LogEntry entry) throws IOException {
    writeString(out, entry.scope().tenant());
    writeString(out, entry.scope().operation());
    writeString(out, entry.intentId());
  }

  private static void writeString(DataOutputStream out, String value) throws IOException {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(utf8.length);
    out.write(utf8);
  }

  private static void writeInstant(DataOutputStream out, Instant instant) throws IOException {
    out.writeLong(instant.getEpochSecond());
    out.writeInt(instant.getNano());
  }

  private static String readString(ByteBuffer in) {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("string length " + length + " out of bounds");
    }
    byte[] utf8 = new byte[length];
    in.get(utf8);
    return new String(utf8, StandardCharsets.UTF_8);
  }

  private static Instant readInstant(ByteBuffer in) {
    return Instant.ofEpochSecond(in.getLong(), in.getInt());
  }
}
