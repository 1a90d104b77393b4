package dev.saferetry.idempotency;

import static dev.saferetry.idempotency.Intents.CHARGES;
import static dev.saferetry.idempotency.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log damaged by a crash is repaired only at its tail; any other damage is reported as is. */
class FileKeyStoreCorruptionTest {
  private static final int HEADER = 8;
  private static final int FRAME_HEADER = 8;

  @TempDir Path dir;
  private final List<IntentRecord> records = new ArrayList<>();

  /** Offsets of the records' frames; the last element is the file's end. */
  private final List<Long> offsets = new ArrayList<>();

  @BeforeEach
  void writeThreeRecords() throws IOException {
    for (String id : List.of("order-1", "order-2", "order-3")) {
      offsets.add(
          Files.exists(dir.resolve(StoreFileBytes.LOG)) ? StoreFileBytes.size(dir) : HEADER);
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        IntentRecord record = pending(id);
        store.begin(record);
        records.add(record);
      }
    }
    offsets.add(StoreFileBytes.size(dir));
  }

  @Test
  void tornTailIsCutWithAWarningAndEarlierRecordsSurvive() throws Exception {
    long lastStart = offsets.get(2);
    long cut = lastStart + (offsets.get(3) - lastStart) / 2;
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, java.util.Arrays.copyOf(bytes, (int) cut));

    String log = StoreFileBytes.logOutputOf(this::openAndClose);

    assertThat(log).contains("WARN").contains(dir.resolve("intents.log").toString());
    assertThat(log).contains("offset " + lastStart);
    assertThat(StoreFileBytes.size(dir)).isEqualTo(lastStart);
    verifyFirstTwoOnly();
  }

  @Test
  void tailCutInsideAFrameHeaderIsAlsoATornTail() throws Exception {
    long lastStart = offsets.get(2);
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, java.util.Arrays.copyOf(bytes, (int) lastStart + 3));
    verifyFirstTwoOnly();
  }

  @Test
  void lastRecordWithABadChecksumIsATornTail() throws Exception {
    StoreFileBytes.flipByte(dir, offsets.get(3) - 2);
    openAndClose();
    assertThat(StoreFileBytes.size(dir)).isEqualTo(offsets.get(2));
    verifyFirstTwoOnly();
  }

  @Test
  void zeroFilledTailLeftByACrashIsCut() throws Exception {
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, java.util.Arrays.copyOf(bytes, bytes.length + 4096));
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).containsExactlyElementsOf(records);
    }
    assertThat(StoreFileBytes.size(dir)).isEqualTo(offsets.get(3));
  }

  @Test
  void headerTornWhileTheFileWasCreatedIsWrittenAgain() throws Exception {
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
    long middle = offsets.get(1);
    StoreFileBytes.flipByte(dir, middle + FRAME_HEADER + 10);
    byte[] damaged = StoreFileBytes.read(dir);

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining(dir.resolve("intents.log").toString())
        .hasMessageContaining("offset " + middle);
    assertThat(StoreFileBytes.read(dir)).isEqualTo(damaged);
  }

  @Test
  void flippedLengthByteBeforeValidRecordsIsReportedNotMistakenForATornTail() throws Exception {
    long middle = offsets.get(1);
    for (int lengthByte = 0; lengthByte < 4; lengthByte++) {
      StoreFileBytes.flipByte(dir, middle + lengthByte);
      byte[] damaged = StoreFileBytes.read(dir);
      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining("offset " + middle);
      assertThat(StoreFileBytes.read(dir)).isEqualTo(damaged);
      StoreFileBytes.flipByte(dir, middle + lengthByte); // undo for the next round
    }
  }

  @Test
  void unknownFormatVersionIsReportedAndTheFileIsLeftAsIs() throws Exception {
    byte[] bytes = StoreFileBytes.read(dir);
    ByteBuffer.wrap(bytes).putInt(4, 2);
    StoreFileBytes.write(dir, bytes);

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining(dir.resolve("intents.log").toString())
        .hasMessageContaining("offset 4")
        .hasMessageContaining("version 2");
    assertThat(StoreFileBytes.read(dir)).isEqualTo(bytes);
  }

  @Test
  void fileThatIsNotAStoreIsReported() throws Exception {
    byte[] foreign = "{\"not\":\"a store\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    StoreFileBytes.write(dir, foreign);

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("offset 0")
        .hasMessageContaining("not a SafeRetry key store file");
    assertThat(StoreFileBytes.read(dir)).isEqualTo(foreign);
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
