package dev.saferetry.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The record encoding refuses what it cannot write or read exactly. */
class RecordCodecTest {
  private static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");
  private static final IdempotencyKey KEY = IdempotencyKey.of("k-1");

  @Test
  void textWithAnUnpairedSurrogateIsRefusedInsteadOfReplaced() {
    // records validate their text, but the encoder itself must never substitute either
    assertThatThrownBy(() -> RecordCodec.encode(new LogEntry.Abandon(SCOPE, "order-42-\uD83D")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
    assertThatThrownBy(() -> RecordCodec.encode(new LogEntry.Abandon(SCOPE, "\uDE00order-42")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void textOutsideTheBasicPlaneRoundTripsExactly() {
    String id = "order-\uD83D\uDE00-\u00e9-\u4e2d";
    LogEntry decoded =
        RecordCodec.decode(
            ByteBuffer.wrap(RecordCodec.encode(new LogEntry.Abandon(SCOPE, id))),
            LogFormat.VERSION);
    assertThat(decoded).isEqualTo(new LogEntry.Abandon(SCOPE, id));
  }

  @Test
  void bytesThatAreNotUtf8AreReportedNotReplaced() {
    byte[] record = RecordCodec.encode(new LogEntry.Abandon(SCOPE, "order-AB"));
    int at = indexOf(record, "AB".getBytes(StandardCharsets.US_ASCII));
    record[at] = (byte) 0xED; // the UTF-8 form of a lone surrogate: ED A0 80
    record[at + 1] = (byte) 0xA0;
    assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(record), LogFormat.VERSION))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid UTF-8");
  }

  @Test
  void stateCodesAreExplicitAndVersionOneOrdinalsStillRead() {
    LogEntry.Complete failed =
        new LogEntry.Complete(SCOPE, "order-1", KEY, IntentState.FAILED, 402, null);
    byte[] v2 = RecordCodec.encode(failed);
    int state = v2.length - 1 - 4 - 1; // ... state | status (int) | has resource id
    assertThat(v2[state]).isEqualTo(RecordCodec.FAILED).isEqualTo((byte) 'F');
    assertThat(RecordCodec.decode(ByteBuffer.wrap(v2), LogFormat.VERSION)).isEqualTo(failed);

    byte[] v1 = v2.clone();
    v1[state] = 2; // FAILED's ordinal when version 1 was written
    assertThat(RecordCodec.decode(ByteBuffer.wrap(v1), LogFormat.VERSION_1)).isEqualTo(failed);
    v1[state] = 1;
    assertThat(
            ((LogEntry.Complete) RecordCodec.decode(ByteBuffer.wrap(v1), LogFormat.VERSION_1))
                .state())
        .isEqualTo(IntentState.SUCCEEDED);
    // an ordinal is not a code: version 2 refuses it, and version 1 refuses PENDING's 0
    assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(v1), LogFormat.VERSION))
        .hasMessageContaining("unknown completion state code 1");
    v1[state] = 0;
    assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(v1), LogFormat.VERSION_1))
        .hasMessageContaining("unknown completion state code 0");
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (java.util.Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
