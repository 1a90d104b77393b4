package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.KeyStoreException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store reads exactly one format: log version 3 and mark version 2. A file of any other version
 * (such as the versions 1 and 2 that development builds wrote, which no release shipped) is refused
 * naming the file and the version, and nothing in the directory changes.
 */
class FileKeyStoreFormatTest {
  @TempDir Path dir;

  private void writeOneRecord() {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(pending("order-1"));
    }
  }

  @Test
  void aLogOfAnyOtherFormatVersionIsRefusedNamingFileAndVersionAndNothingChanges()
      throws Exception {
    writeOneRecord();
    byte[] log = StoreFileBytes.read(dir);
    for (int version : new int[] {1, 2, 4, 0, -1}) {
      byte[] other = log.clone();
      ByteBuffer.wrap(other).putInt(4, version);
      StoreFileBytes.write(dir, other);
      StoreFileBytes.assertOpenRefusedChangingNothing(
          dir, "offset 4", "format version " + Integer.toUnsignedString(version) + " ");
    }
    StoreFileBytes.write(dir, log);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1")).isPresent();
    }
  }

  /** The logs of development builds as they started: a header, no record, no mark yet. */
  @Test
  void anEmptyLogOfAnEarlierDevelopmentFormatIsRefusedNotTakenForATornHeader() throws Exception {
    Files.createFile(
        dir.resolve("saferetry.lock"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    byte[] versionOne = ByteBuffer.allocate(8).put(magic("SRKS")).putInt(1).array();
    byte[] versionTwo = ByteBuffer.allocate(16).put(magic("SRKS")).putInt(2).putLong(7).array();
    for (byte[] log : List.of(versionOne, versionTwo)) {
      StoreFileBytes.write(dir, log);
      Files.setPosixFilePermissions(
          dir.resolve(StoreFileBytes.LOG), PosixFilePermissions.fromString("rw-------"));
      List<String> files = StoreFileBytes.names(dir);
      int version = ByteBuffer.wrap(log).getInt(4);
      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(dir.resolve(StoreFileBytes.LOG).toString())
          .hasMessageContaining("format version " + version + " ")
          .hasMessageContaining("nothing was changed");
      assertThat(StoreFileBytes.read(dir)).isEqualTo(log);
      assertThat(StoreFileBytes.names(dir)).isEqualTo(files).doesNotContain(StoreFileBytes.MARK);
    }
  }

  /**
   * A mark of version 1 as development builds wrote it (28 bytes: no preallocated end), with a
   * valid checksum; and a mark of a version after this one.
   */
  @Test
  void aMarkOfAnyOtherVersionIsRefusedNamingItAndItsVersionAndNothingChanges() throws Exception {
    writeOneRecord();
    byte[] log = StoreFileBytes.read(dir);
    byte[] mark = StoreFileBytes.readMark(dir);
    ByteBuffer current = ByteBuffer.wrap(mark);
    byte[] versionOne =
        withCrc(
            ByteBuffer.allocate(28)
                .put(magic("SRKM"))
                .putInt(1)
                .putLong(current.getLong(8))
                .putLong(current.getLong(16)));
    byte[] versionThree = withCrc(ByteBuffer.wrap(mark.clone()).putInt(4, 3).position(32));
    for (byte[] other : List.of(versionOne, versionThree)) {
      StoreFileBytes.writeMark(dir, other);
      List<String> files = StoreFileBytes.names(dir);
      int version = ByteBuffer.wrap(other).getInt(4);
      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(dir.resolve(StoreFileBytes.MARK).toString())
          .hasMessageContaining("version " + version + " ")
          .hasMessageContaining("nothing was changed");
      assertThat(StoreFileBytes.readMark(dir)).isEqualTo(other);
      assertThat(StoreFileBytes.read(dir)).isEqualTo(log);
      assertThat(StoreFileBytes.names(dir)).isEqualTo(files);
    }
    StoreFileBytes.writeMark(dir, mark);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1")).isPresent();
    }
  }

  private static byte[] magic(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** Appends the CRC32C of everything before the buffer's position, as a mark ends. */
  private static byte[] withCrc(ByteBuffer mark) {
    CRC32C crc = new CRC32C();
    crc.update(mark.array(), 0, mark.position());
    mark.putInt((int) crc.getValue());
    return Arrays.copyOf(mark.array(), mark.position());
  }
}
