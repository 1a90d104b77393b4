package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The record payloads of format versions 1 and 2, which earlier releases wrote and this one reads
 * to upgrade: every field in full, strings as a four-byte length and UTF-8. Version 2 states are
 * explicit codes; version 1 wrote the enum's ordinal of that time. Stateless.
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

  private static Instant readInstant(ByteBuffer in) {
    return Instant.ofEpochSecond(in.getLong(), in.getInt());
  }
}
