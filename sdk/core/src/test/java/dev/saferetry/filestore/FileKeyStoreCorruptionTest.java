package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only an incomplete final frame written after the last sync is a torn write, cut off (and saved
 * aside); anything else that is wrong with the log is damage, reported with file and offset, and
 * the file is left exactly as it was.
 */
class FileKeyStoreCorruptionTest {
  private static final int HEADER = 16;
  private static final int FRAME_HEADER = 8;

  @TempDir Path dir;
  private final List<IntentRecord> records = new ArrayList<>();

  /** Offsets of the records' frames; the last element is the file's end. */
  private final List<Long> offsets = new ArrayList<>();

  /** The high-water mark as it was before the third record was synced. */
  private byte[] markBeforeThird;

  @BeforeEach
  void writeThreeRecords() throws IOException {
    for (String id : List.of("order-1", "order-2", "order-3")) {
      offsets.add(
          Files.exists(dir.resolve(StoreFileBytes.LOG)) ? StoreFileBytes.size(dir) : HEADER);
      if (id.equals("order-3")) {
        markBeforeThird = StoreFileBytes.readMark(dir);
      }
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        IntentRecord record = pending(id);
        store.begin(record);
        records.add(record);
      }
    }
    offsets.add(StoreFileBytes.size(dir));
  }

  /** A power failure lost the mark's last overwrite: the third record's sync is not vouched for. */
  private void loseTheLastMarkUpdate() throws IOException {
    StoreFileBytes.writeMark(dir, markBeforeThird);
  }

  @Test
  void tornFinalRecordAfterTheMarkIsSavedToASideFileThenCutWithAWarning() throws Exception {
    loseTheLastMarkUpdate();
    long lastStart = offsets.get(2);
    long cut = lastStart + (offsets.get(3) - lastStart) / 2;
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) cut));

    String log = StoreFileBytes.logOutputOf(this::openAndClose);

    Path side = dir.resolve("intents.log.torn-" + lastStart);
    assertThat(log).contains("WARN").contains(dir.resolve("intents.log").toString());
    assertThat(log).contains("offset " + lastStart).contains(side.toString());
    assertThat(Files.readAllBytes(side))
        .isEqualTo(Arrays.copyOfRange(bytes, (int) lastStart, (int) cut));
    assertThat(StoreFileBytes.size(dir)).isEqualTo(lastStart);
    verifyFirstTwoOnly();
  }

  @Test
  void tailCutInsideAFrameHeaderAfterTheMarkIsAlsoATornTail() throws Exception {
    loseTheLastMarkUpdate();
    long lastStart = offsets.get(2);
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) lastStart + 3));
    verifyFirstTwoOnly();
    assertThat(dir.resolve("intents.log.torn-" + lastStart)).hasSize(3);
  }

  @Test
  void aTornTailCutTwiceAtTheSameOffsetKeepsBothSideFiles() throws Exception {
    loseTheLastMarkUpdate();
    long lastStart = offsets.get(2);
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) lastStart + 3));
    openAndClose();
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) lastStart + 5));
    StoreFileBytes.writeMark(dir, markBeforeThird);
    openAndClose();
    assertThat(dir.resolve("intents.log.torn-" + lastStart)).hasSize(3);
    assertThat(dir.resolve("intents.log.torn-" + lastStart + ".1")).hasSize(5);
  }

  @Test
  void aFlippedBitInTheLastSyncedRecordIsDamageAndTheFileIsLeftAsIs() throws Exception {
    StoreFileBytes.flipByte(dir, offsets.get(3) - 2);
    assertDamagedAt(offsets.get(2), "checksum");
  }

  @Test
  void aCompleteFinalRecordWithABadChecksumIsDamageEvenAfterTheMark() throws Exception {
    loseTheLastMarkUpdate();
    StoreFileBytes.flipByte(dir, offsets.get(3) - 2);
    assertDamagedAt(offsets.get(2), "checksum");
  }

  @Test
  void aDamagedLengthThatMakesTheLastSyncedRecordLookTornIsCaughtByTheMark() throws Exception {
    // the length's second byte grows the frame past the end of the file: it looks incomplete
    StoreFileBytes.flipByte(dir, offsets.get(2) + 2);
    assertDamagedAt(offsets.get(2), "were synced");
  }

  @Test
  void fourKibOfZerosAfterTheLastRecordIsDamageNotATornWrite() throws Exception {
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, bytes.length + 4096));
    assertDamagedAt(offsets.get(3), "invalid record length 0");
  }

  @Test
  void aMibOfGarbageAfterTheLastRecordIsDamageNotATornWrite() throws Exception {
    byte[] bytes = StoreFileBytes.read(dir);
    byte[] garbage = new byte[1024 * 1024];
    new Random(42).nextBytes(garbage);
    byte[] damaged = Arrays.copyOf(bytes, bytes.length + garbage.length);
    System.arraycopy(garbage, 0, damaged, bytes.length, garbage.length);
    StoreFileBytes.write(dir, damaged);
    assertDamagedAt(offsets.get(3), "more than a crash can leave behind");
  }

  @Test
  void headerTornWhileTheStoreWasCreatedIsWrittenAgain() throws Exception {
    // the crash came while the very first header was written: no record, no mark yet
    Files.delete(dir.resolve(StoreFileBytes.MARK));
    StoreFileBytes.write(dir, new byte[] {'S', 'R', 'K'});
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).isEmpty();
      store.begin(pending("order-9"));
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-9")).isPresent();
    }
  }

  @Test
  void flippedPayloadByteBeforeValidRecordsIsReportedWithFileAndOffsetAndNothingChanges()
      throws Exception {
    StoreFileBytes.flipByte(dir, offsets.get(1) + FRAME_HEADER + 10);
    assertDamagedAt(offsets.get(1), "checksum");
  }

  @Test
  void flippedLengthByteBeforeValidRecordsIsReportedNotMistakenForATornTail() throws Exception {
    long middle = offsets.get(1);
    for (int lengthByte = 0; lengthByte < 4; lengthByte++) {
      StoreFileBytes.flipByte(dir, middle + lengthByte);
      assertDamagedAt(middle, "");
      StoreFileBytes.flipByte(dir, middle + lengthByte); // undo for the next round
    }
  }

  @Test
  void unknownFormatVersionIsReportedAndTheFileIsLeftAsIs() throws Exception {
    byte[] bytes = StoreFileBytes.read(dir);
    ByteBuffer.wrap(bytes).putInt(4, 4);
    StoreFileBytes.write(dir, bytes);
    assertDamagedAt(4, "version 4");
  }

  @Test
  void fileThatIsNotAStoreIsReported() throws Exception {
    StoreFileBytes.write(dir, "{\"not\":\"a store\"}".getBytes(StandardCharsets.UTF_8));
    assertDamagedAt(0, "not a SafeRetry key store file");
  }

  @Test
  void unreadableLogFileIsReportedByName() throws Exception {
    Files.delete(dir.resolve(StoreFileBytes.LOG));
    Files.createDirectory(dir.resolve(StoreFileBytes.LOG));

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining(dir.resolve("intents.log").toString());
  }

  @Test
  void failedOpenReleasesTheDirectoryLock() throws Exception {
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.flipByte(dir, offsets.get(1) + FRAME_HEADER + 3);
    assertThatThrownBy(() -> FileKeyStore.open(dir)).isInstanceOf(KeyStoreException.class);
    StoreFileBytes.write(dir, bytes);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(3);
    }
  }

  @Test
  void everyFailedOpenReleasesEveryFileItOpened() throws Exception {
    byte[] good = StoreFileBytes.read(dir);
    List<byte[]> damages =
        List.of(
            Arrays.copyOf(good, (int) (long) offsets.get(2)), // truncated at a record boundary
            Arrays.copyOf(good, good.length + 4096), // zeros
            new byte[0]); // emptied
    for (byte[] damaged : damages) {
      StoreFileBytes.write(dir, damaged);
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> FileKeyStore.open(dir)).isInstanceOf(KeyStoreException.class);
        assertThat(StoreFileBytes.openFilesUnder(dir)).isEmpty();
      }
    }
    StoreFileBytes.write(dir, good);
    try (dev.saferetry.testing.ChildJvm holder =
        dev.saferetry.testing.ChildJvm.start(LockHolderMain.class, dir.toString())) {
      holder.awaitLine("OPENED");
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> FileKeyStore.open(dir)).hasMessageContaining("locked");
        assertThat(StoreFileBytes.openFilesUnder(dir)).isEmpty();
      }
    }
  }

  /** Opening fails naming the file and offset, and changes no byte of any store file. */
  private void assertDamagedAt(long offset, String why) throws IOException {
    StoreFileBytes.assertOpenRefusedChangingNothing(dir, "offset " + offset, why);
  }

  private Void openAndClose() {
    FileKeyStore.open(dir).close();
    return null;
  }

  private void verifyFirstTwoOnly() {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).containsExactly(records.get(0), records.get(1));
      assertThat(store.find(CHARGES, "order-3")).isEmpty();
      IntentRecord again = pending("order-3");
      assertThat(store.begin(again).record()).isEqualTo(again);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(3);
    }
  }
}
