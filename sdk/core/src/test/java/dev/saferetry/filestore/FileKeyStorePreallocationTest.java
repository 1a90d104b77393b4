package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.testing.ChildJvm;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log is preallocated ahead of its records: zeros in the space the high-water mark vouches for
 * are space not yet written, never damage and never a record; zeros or garbage beyond it, or a
 * complete record with a bad checksum in it, are damage; a record torn in it is cut like one torn
 * at the end of the file.
 */
class FileKeyStorePreallocationTest {
  private static final int SIGKILL_EXIT = 128 + 9;
  private static final int SECTOR = 512;

  @TempDir Path dir;

  @Test
  void recordsOverwritePreallocatedSpaceAndClosingCutsWhatIsLeft() throws Exception {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      long size = StoreFileBytes.size(dir);
      assertThat(size).isGreaterThanOrEqualTo(64 * 1024);
      for (int i = 0; i < 20; i++) {
        store.begin(pending("order-" + i));
        assertThat(StoreFileBytes.size(dir)).isEqualTo(size); // the sync writes no new size
      }
      assertThat(StoreFileBytes.recordsEnd(dir)).isLessThan(size);
    }
    assertThat(StoreFileBytes.size(dir)).isEqualTo(StoreFileBytes.recordsEnd(dir));
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(20);
    }
  }

  /** Begins intents in a child that is then killed, leaving its preallocated zeros behind. */
  private void killedWithZerosLeft(String... ids) throws Exception {
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      for (String id : ids) {
        child.send("begin " + id);
        child.awaitLine("BEGUN " + id);
      }
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    assertThat(StoreFileBytes.size(dir)).isGreaterThan(StoreFileBytes.recordsEnd(dir));
  }

  @Test
  void zerosAKilledProcessLeftInItsPreallocatedSpaceAreNotYetWritten() throws Exception {
    killedWithZerosLeft("order-1", "order-2", "order-3");
    List<String> before = StoreFileBytes.names(dir);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending())
          .extracting(IntentRecord::intentId)
          .containsExactly("order-1", "order-2", "order-3");
      store.begin(pending("order-4"));
    }
    assertThat(StoreFileBytes.names(dir)).isEqualTo(before); // nothing was cut or set aside
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(4);
    }
  }

  @Test
  void zerosBeyondThePreallocatedSpaceAreDamage() throws Exception {
    killedWithZerosLeft("order-1", "order-2");
    byte[] bytes = StoreFileBytes.read(dir);
    long recordsEnd = StoreFileBytes.recordsEnd(bytes);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, bytes.length + 4096));
    StoreFileBytes.assertOpenRefusedChangingNothing(dir, "offset " + recordsEnd);
  }

  @Test
  void garbageInThePreallocatedSpaceIsDamage() throws Exception {
    killedWithZerosLeft("order-1", "order-2");
    byte[] bytes = StoreFileBytes.read(dir);
    long recordsEnd = StoreFileBytes.recordsEnd(bytes);
    bytes[bytes.length - 100] = 0x42; // far behind the records, inside the space
    StoreFileBytes.write(dir, bytes);
    StoreFileBytes.assertOpenRefusedChangingNothing(dir, "offset " + recordsEnd);
  }

  /** An intent whose record takes about 300 bytes: a long id. */
  private static final String BIG = "order-" + "x".repeat(240);

  /**
   * In a child then killed: small intents until the next record starts less than 200 bytes before a
   * sector boundary, then {@link #BIG}, which therefore crosses it. Returns the mark as it was
   * before the big record's sync.
   */
  private byte[] killedAfterARecordAcrossASectorBoundary() throws Exception {
    byte[] markBefore;
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      for (int i = 0; ; i++) {
        child.send("begin small-" + i);
        child.awaitLine("BEGUN small-" + i);
        long end = StoreFileBytes.recordsEnd(dir);
        if (end % SECTOR > SECTOR - 200 && end % SECTOR < SECTOR - 50) {
          break;
        }
      }
      markBefore = StoreFileBytes.readMark(dir);
      child.send("begin " + BIG);
      child.awaitLine("BEGUN " + BIG);
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    return markBefore;
  }

  @Test
  void aRecordTornInPreallocatedSpaceIsSavedAsideAndCut() throws Exception {
    byte[] markBefore = killedAfterARecordAcrossASectorBoundary();
    byte[] bytes = StoreFileBytes.read(dir);
    long start = recordStartBeforeEnd(bytes);
    long boundary = (start / SECTOR + 1) * SECTOR;
    long end = StoreFileBytes.recordsEnd(bytes);
    assertThat(end).isGreaterThan(boundary); // the big record crosses a sector boundary
    // a power failure wrote the sectors up to the boundary, not the rest, nor the mark after sync
    Arrays.fill(bytes, (int) boundary, (int) end, (byte) 0);
    StoreFileBytes.write(dir, bytes);
    StoreFileBytes.writeMark(dir, markBefore);

    String output =
        StoreFileBytes.logOutputOf(
            () -> {
              try (FileKeyStore store = FileKeyStore.open(dir)) {
                assertThat(store.pending()).extracting(IntentRecord::intentId).doesNotContain(BIG);
                assertThat(store.find(CHARGES, "small-0")).isPresent();
                assertThat(store.find(CHARGES, BIG)).isEmpty();
              }
              return null;
            });
    assertThat(output).contains("Cut off a torn record").contains("offset " + start);
    assertThat(Files.readAllBytes(dir.resolve("intents.log.torn-" + start)))
        .isEqualTo(Arrays.copyOfRange(bytes, (int) start, (int) boundary));
  }

  @Test
  void aCompleteRecordWithABadChecksumInPreallocatedSpaceIsDamageEvenAfterTheMark()
      throws Exception {
    byte[] markBefore = killedAfterARecordAcrossASectorBoundary();
    byte[] bytes = StoreFileBytes.read(dir);
    long start = recordStartBeforeEnd(bytes);
    bytes[(int) start + 100] ^= 0x5A;
    StoreFileBytes.write(dir, bytes);
    StoreFileBytes.writeMark(dir, markBefore);
    StoreFileBytes.assertOpenRefusedChangingNothing(
        dir, "offset " + start, "a complete record fails its checksum");
  }

  /** The offset of the last record of the log. */
  private static long recordStartBeforeEnd(byte[] log) {
    int pos = 16;
    int last = pos;
    while (pos + 8 <= log.length) {
      int length = ByteBuffer.wrap(log, pos, 4).getInt();
      if (length <= 0) {
        break;
      }
      last = pos;
      pos += 8 + length;
    }
    return last;
  }
}
