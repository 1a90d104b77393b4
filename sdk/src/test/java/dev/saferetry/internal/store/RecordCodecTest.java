package dev.saferetry.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Records of format versions 1 and 2 are read exactly, and what is not valid is reported. */
class RecordCodecTest {
  private static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");

  /** A completion as versions 1 and 2 wrote it: every string a four-byte length and UTF-8. */
  private static byte[] completion(String intentId, int state) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(RecordCodec.COMPLETE);
      for (String text : new String[] {SCOPE.tenant(), SCOPE.operation(), intentId, "k-1"}) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
      }
      out.writeByte(state);
      out.writeInt(402);
      out.writeBoolean(false);
    }
    return bytes.toByteArray();
  }

  @Test
  void stateCodesOfVersionTwoAndOrdinalsOfVersionOneAreBothRead() throws Exception {
    LogEntry.Complete failed =
        new LogEntry.Complete(
            SCOPE, "order-1", IdempotencyKey.of("k-1"), IntentState.FAILED, 402, null);
    assertThat(RecordCodec.decode(ByteBuffer.wrap(completion("order-1", 'F')), 2))
        .isEqualTo(failed);
    assertThat(RecordCodec.decode(ByteBuffer.wrap(completion("order-1", 2)), 1)).isEqualTo(failed);
    assertThat(
            ((LogEntry.Complete) RecordCodec.decode(ByteBuffer.wrap(completion("order-1", 1)), 1))
                .state())
        .isEqualTo(IntentState.SUCCEEDED);
    // an ordinal is not a code: version 2 refuses it, and version 1 refuses PENDING's 0
    assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(completion("order-1", 1)), 2))
        .hasMessageContaining("unknown completion state code 1");
    assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(completion("order-1", 0)), 1))
        .hasMessageContaining("unknown completion state code 0");
  }

  @Test
  void bytesThatAreNotUtf8AreReportedNotReplaced() throws Exception {
    byte[] record = completion("order-AB", 'F');
    int at = indexOf(record, "AB".getBytes(StandardCharsets.US_ASCII));
    record[at] = (byte) 0xED; // the UTF-8 form of a lone surrogate: ED A0 80
    record[at + 1] = (byte) 0xA0;
    assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(record), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid UTF-8");
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (java.util.Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
