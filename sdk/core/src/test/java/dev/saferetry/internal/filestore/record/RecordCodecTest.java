package dev.saferetry.internal.filestore.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.internal.filestore.log.FrameBuffer;
import dev.saferetry.internal.filestore.log.LogFormat;
import dev.saferetry.internal.filestore.log.PayloadReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The records of the current format: exact round trips in every form a field can take, explicit
 * state codes, strict text, and the size a typical completed intent takes.
 */
class RecordCodecTest {
  private static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");
  private static final String FP =
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  private static final Instant T0 = Instant.parse("2026-01-01T10:00:00.123456789Z");

  private static Scopes scopes() {
    Scopes scopes = new Scopes();
    scopes.define(0, SCOPE);
    return scopes;
  }

  private static IntentRecord record(String id, String key, String fingerprint) {
    return IntentRecord.pending(
        SCOPE, id, IdempotencyKey.of(key), fingerprint, T0, Duration.ofHours(24));
  }

  /** Encodes {@code r} as a begin or a completion and decodes it back. */
  private static IntentRecord roundTrip(IntentRecord r) {
    FrameBuffer out = new FrameBuffer();
    if (r.state() == IntentState.PENDING) {
      RecordCodec.begin(out, 0, r);
    } else {
      RecordCodec.complete(out, 0, r);
    }
    int length = out.length() - LogFormat.FRAME_HEADER_SIZE;
    assertThat(LogFormat.validFrameLength(out.array(), 0, out.length())).isEqualTo(length);
    PayloadReader in = new PayloadReader().reset(out.array(), LogFormat.FRAME_HEADER_SIZE, length);
    return RecordCodec.decode(in, scopes());
  }

  @Test
  void everyFormOfKeyAndFingerprintRoundTripsExactly() {
    String uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
    for (String key : new String[] {uuid, uuid.toUpperCase(), "order-1-charge-1", "k"}) {
      for (String fp : new String[] {FP, FP.toUpperCase(), "fp-order-1", "abc", "ab"}) {
        IntentRecord pending = record("order-1/charge", key, fp);
        assertThat(roundTrip(pending)).isEqualTo(pending);
        IntentRecord done = pending.complete(IntentState.SUCCEEDED, 201, "ch_" + key);
        assertThat(roundTrip(done)).isEqualTo(done);
      }
    }
  }

  @Test
  void instantsStatusesAndAbsentResourceIdsRoundTripExactly() {
    IdempotencyKey key = IdempotencyKey.random();
    for (Instant created :
        new Instant[] {T0, Instant.EPOCH, Instant.parse("1969-12-31T23:59:59.999999999Z")}) {
      IntentRecord r =
          IntentRecord.pending(SCOPE, "order-1", key, FP, created, Duration.ofNanos(1));
      assertThat(roundTrip(r)).isEqualTo(r);
      for (int status : new int[] {0, 200, 402, -1, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
        IntentRecord failed = r.complete(IntentState.FAILED, status, null);
        assertThat(roundTrip(failed)).isEqualTo(failed);
      }
    }
  }

  @Test
  void textOutsideTheBasicPlaneRoundTripsExactly() {
    IntentRecord r = record("order-\uD83D\uDE00-\u00e9-\u4e2d", "k-1", "fp-\uD83D\uDE00");
    IntentRecord done = r.complete(IntentState.SUCCEEDED, 201, "ch_\u00e9\uD83D\uDE00");
    assertThat(roundTrip(r)).isEqualTo(r);
    assertThat(roundTrip(done)).isEqualTo(done);
  }

  @Test
  void textWithAnUnpairedSurrogateIsRefusedInsteadOfReplaced() {
    // records validate their text, but the encoder itself must never substitute either
    assertThatThrownBy(() -> RecordCodec.abandon(new FrameBuffer(), 0, "order-42-\uD83D"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
    assertThatThrownBy(() -> RecordCodec.abandon(new FrameBuffer(), 0, "\uDE00order-42"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void bytesThatAreNotUtf8AreReportedNotReplacedWhenScannedOrDecoded() {
    FrameBuffer out = new FrameBuffer();
    RecordCodec.begin(out, 0, record("order-AB", "k-1", FP));
    byte[] bytes = out.array();
    int at = indexOf(bytes, "AB".getBytes(StandardCharsets.US_ASCII));
    bytes[at] = (byte) 0xED; // the UTF-8 form of a lone surrogate: ED A0 80
    bytes[at + 1] = (byte) 0xA0;
    int length = out.length() - LogFormat.FRAME_HEADER_SIZE;
    PayloadReader in = new PayloadReader();
    assertThatThrownBy(
            () ->
                RecordScan.scan(
                    in.reset(bytes, LogFormat.FRAME_HEADER_SIZE, length), new RecordScan()))
        .hasMessageContaining("not valid UTF-8");
    assertThatThrownBy(
            () ->
                RecordCodec.decode(in.reset(bytes, LogFormat.FRAME_HEADER_SIZE, length), scopes()))
        .hasMessageContaining("not valid UTF-8");
  }

  @Test
  void completionStatesAreExplicitCodesNotOrdinals() {
    IntentRecord r = record("order-1", "k-1", FP);
    for (IntentState state : new IntentState[] {IntentState.SUCCEEDED, IntentState.FAILED}) {
      FrameBuffer out = new FrameBuffer();
      RecordCodec.complete(out, 0, r.complete(state, 200, null));
      // ... expiry | state code | status (zigzag 400: 0x90 0x03) | has resource id (0)
      byte code = out.array()[out.length() - 4];
      assertThat(code).isEqualTo(state == IntentState.SUCCEEDED ? (byte) 'S' : (byte) 'F');
    }
  }

  @Test
  void aRecordNamingAnUndefinedScopeOrWithTrailingBytesIsRefused() {
    FrameBuffer out = new FrameBuffer();
    RecordCodec.begin(out, 7, record("order-1", "k-1", FP));
    int length = out.length() - LogFormat.FRAME_HEADER_SIZE;
    PayloadReader in = new PayloadReader();
    assertThatThrownBy(() -> RecordCodec.decode(in.reset(out.array(), 8, length), scopes()))
        .hasMessageContaining("scope 7");
    assertThatThrownBy(
            () -> RecordScan.scan(in.reset(out.array(), 8, length - 1), new RecordScan()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTypicalCompletedIntentTakesWellUnderOneHundredAndFiftyBytes() {
    IntentRecord r =
        IntentRecord.pending(
            SCOPE, "order-1048576/charge", IdempotencyKey.random(), FP, T0, Duration.ofHours(24));
    FrameBuffer out = new FrameBuffer();
    RecordCodec.complete(
        out, 0, r.complete(IntentState.SUCCEEDED, 201, "ch_3MmlLrLkdIwHu7ix0snN0B15"));
    assertThat(out.length()).isLessThan(140);
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
