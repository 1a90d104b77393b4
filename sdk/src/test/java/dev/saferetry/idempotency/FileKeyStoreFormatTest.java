package dev.saferetry.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by earlier versions keep working, and are rewritten in the current format.
 *
 * <p>{@code v1-intents.log} was written by the first release (format version 1, states stored as
 * enum ordinals) with: order-1/charge pending; order-2/charge succeeded (201, ch_2); order-3/refund
 * of tenant acme, operation "POST /v1/refunds", failed (402); order-4/charge begun and abandoned;
 * an intent id with non-ASCII text (including a character outside the Basic Multilingual Plane),
 * pending.
 *
 * <p>{@code v2-intents.log} and its mark {@code v2-intents.mark} were written by the previous
 * release (format version 2, full text fields) with: order-1/charge pending; order-2/charge
 * succeeded (201, ch_2); order-3/refund of acme with a key and fingerprint of the caller's own
 * shape, failed (402); order-4/charge abandoned; the non-ASCII id pending; order-6/charge succeeded
 * (200, ch_6_old), then begun again with a new key a day later, pending; order-7/charge with an
 * upper-case key and fingerprint, succeeded (201, no resource id).
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
      assertThat(ByteBuffer.wrap(StoreFileBytes.read(dir)).getInt(4)).isEqualTo(3);
      assertThat(dir.resolve(StoreFileBytes.MARK)).exists();
    }
  }

  private static final Instant T2 = Instant.parse("2026-03-01T09:00:00.123456789Z");
  private static final String FP =
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

  /** The directory of a store of the previous release: its log, its mark, its lock file. */
  private void copyVersionTwoFixture() throws IOException {
    Files.createFile(
        dir.resolve("saferetry.lock"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    for (String name : new String[] {StoreFileBytes.LOG, StoreFileBytes.MARK}) {
      try (InputStream in = FileKeyStoreFormatTest.class.getResourceAsStream("v2-" + name)) {
        Path target = dir.resolve(name);
        Files.write(target, in.readAllBytes());
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
      }
    }
  }

  private static IntentRecord v2(IntentScope scope, String id, String key, String fp, long second) {
    Duration retention = scope.equals(REFUNDS) ? Duration.ofDays(7) : DAY;
    return IntentRecord.pending(
        scope, id, IdempotencyKey.of(key), fp, T2.plusSeconds(second), retention);
  }

  @Test
  void aVersionTwoFileOpensIntoTheCompactIndexWithEveryRecordExactAndIsUpgraded() throws Exception {
    copyVersionTwoFixture();
    assertThat(ByteBuffer.wrap(StoreFileBytes.read(dir)).getInt(4)).isEqualTo(2);
    String u = "-4111-8111-";
    IntentRecord first = v2(CHARGES, "order-1/charge", "11111111-1111" + u + "111111111111", FP, 0);
    IntentRecord fifth = v2(CHARGES, NON_ASCII, "55555555-5555-4555-8555-555555555555", FP, 4);
    IntentRecord sixth =
        v2(CHARGES, "order-6/charge", "6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b", FP, 86_410);
    IntentRecord second =
        v2(CHARGES, "order-2/charge", "22222222-2222-4222-8222-222222222222", FP, 1)
            .complete(IntentState.SUCCEEDED, 201, "ch_2");
    IntentRecord third =
        v2(REFUNDS, "order-3/refund", "my-own-key-3", "not-hex-fingerprint", 2)
            .complete(IntentState.FAILED, 402, null);
    IntentRecord seventh =
        v2(CHARGES, "order-7/charge", "77777777-7777-4777-8777-77777777777A", FP.toUpperCase(), 6)
            .complete(IntentState.SUCCEEDED, 201, null);
    for (int open = 0; open < 2; open++) { // once upgrading, once reading the upgraded file
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        assertThat(store.pending()).containsExactly(first, fifth, sixth);
        assertThat(store.find(CHARGES, "order-2/charge")).contains(second);
        assertThat(store.find(REFUNDS, "order-3/refund")).contains(third);
        assertThat(store.find(CHARGES, "order-4/charge")).isEmpty();
        assertThat(store.find(CHARGES, "order-7/charge")).contains(seventh);
        assertThat(
                store
                    .begin(
                        v2(
                            CHARGES,
                            "order-2/charge",
                            "22222222-2222-4222-8222-2222222222ff",
                            FP,
                            9))
                    .record())
            .isEqualTo(second);
        assertThat(store.stats().intents()).isEqualTo(6);
        assertThat(store.stats().pendingIntents()).isEqualTo(3);
      }
      assertThat(ByteBuffer.wrap(StoreFileBytes.read(dir)).getInt(4)).isEqualTo(3);
    }
  }

  @Test
  void aVersionTwoFileTruncatedAtARecordBoundaryIsRefusedBeforeAnyUpgrade() throws Exception {
    copyVersionTwoFixture();
    byte[] log = StoreFileBytes.read(dir);
    int cut = 16;
    while (cut + 8 + ByteBuffer.wrap(log, cut, 4).getInt() < log.length) {
      cut += 8 + ByteBuffer.wrap(log, cut, 4).getInt(); // the start of the last record
    }
    StoreFileBytes.write(dir, Arrays.copyOf(log, cut));
    StoreFileBytes.assertOpenRefusedChangingNothing(dir, "offset " + cut, "were synced");
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
