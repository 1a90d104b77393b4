package dev.saferetry.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by earlier versions keep working. {@code v1-intents.log} was written by the first
 * release (format version 1, states stored as enum ordinals) with: order-1/charge pending;
 * order-2/charge succeeded (201, ch_2); order-3/refund of tenant acme, operation "POST
 * /v1/refunds", failed (402); order-4/charge begun and abandoned; an intent id with non-ASCII text
 * (including a character outside the Basic Multilingual Plane), pending.
 */
class FileKeyStoreFormatTest {
  private static final Instant T0 = Instant.parse("2026-01-01T10:00:00.123456789Z");
  private static final Duration DAY = Duration.ofHours(24);
  private static final IntentScope CHARGES = new IntentScope("default", "POST /v1/charges");
  private static final IntentScope REFUNDS = new IntentScope("acme", "POST /v1/refunds");
  private static final String NON_ASCII = "commande-5/paiement-\u00e9-\uD83D\uDE00";

  @TempDir Path dir;

  static byte[] versionOneFixture() throws IOException {
    try (InputStream in = FileKeyStoreFormatTest.class.getResourceAsStream("v1-intents.log")) {
      return in.readAllBytes();
    }
  }

  @Test
  void aVersionOneFileOpensWithEveryRecordIntactAndIsUpgraded() throws Exception {
    byte[] v1 = versionOneFixture();
    assertThat(ByteBuffer.wrap(v1).getInt(4)).isEqualTo(1);
    Files.write(dir.resolve(StoreFileBytes.LOG), v1);

    for (int open = 0; open < 2; open++) { // once upgrading, once reading the upgraded file
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        assertThat(store.pending())
            .containsExactly(
                record(CHARGES, "order-1/charge", "11111111-1111-4111-8111-111111111111", 'a', 0),
                record(CHARGES, NON_ASCII, "55555555-5555-4555-8555-555555555555", 'e', 4));
        assertThat(store.find(CHARGES, "order-2/charge"))
            .contains(
                record(CHARGES, "order-2/charge", "22222222-2222-4222-8222-222222222222", 'b', 1)
                    .complete(IntentState.SUCCEEDED, 201, "ch_2"));
        assertThat(store.find(REFUNDS, "order-3/refund"))
            .contains(
                record(REFUNDS, "order-3/refund", "33333333-3333-4333-8333-333333333333", 'c', 2)
                    .complete(IntentState.FAILED, 402, null));
        assertThat(store.find(CHARGES, "order-4/charge")).isEmpty();
      }
      assertThat(ByteBuffer.wrap(StoreFileBytes.read(dir)).getInt(4)).isEqualTo(2);
      assertThat(dir.resolve(StoreFileBytes.MARK)).exists();
    }
  }

  @Test
  void completionsAreStoredWithExplicitStateCodesNotOrdinals() throws Exception {
    IntentRecord ok = record(CHARGES, "ok", "66666666-6666-4666-8666-666666666666", 'f', 0);
    IntentRecord no = record(CHARGES, "no", "77777777-7777-4777-8777-777777777777", 'a', 0);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(ok);
      store.begin(no);
      store.complete(ok.complete(IntentState.SUCCEEDED, 200, null));
      store.complete(no.complete(IntentState.FAILED, 400, null));
    }
    byte[] log = StoreFileBytes.read(dir);
    // a completion is: ... key (length + 36 bytes) | state code | status (int) | has resource id
    assertThat(stateAfterKey(log, ok.key())).isEqualTo((byte) 'S');
    assertThat(stateAfterKey(log, no.key())).isEqualTo((byte) 'F');
  }

  private static byte stateAfterKey(byte[] log, IdempotencyKey key) {
    byte[] needle = key.value().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int i = log.length - needle.length; i >= 0; i--) {
      if (java.util.Arrays.equals(log, i, i + needle.length, needle, 0, needle.length)) {
        return log[i + needle.length]; // the last occurrence is the completion record
      }
    }
    throw new AssertionError("key not in the log");
  }

  private static IntentRecord record(
      IntentScope scope, String id, String key, char fingerprint, int second) {
    return IntentRecord.pending(
        scope,
        id,
        IdempotencyKey.of(key),
        String.valueOf(fingerprint).repeat(64),
        T0.plusSeconds(second),
        DAY);
  }
}
