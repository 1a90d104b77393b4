package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the store may live, and what its files look like on disk. */
class FileKeyStoreFilesTest {
  @TempDir Path dir;

  @Test
  void missingDirectoryIsNamedAndNotCreated() {
    Path missing = dir.resolve("no/such/store");

    assertThatThrownBy(() -> FileKeyStore.open(missing))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("does not exist");
    assertThat(dir.resolve("no")).doesNotExist();
  }

  @Test
  void regularFileInPlaceOfTheDirectoryIsRefused() throws IOException {
    Path file = Files.createFile(dir.resolve("store"));

    assertThatThrownBy(() -> FileKeyStore.open(file))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("not a directory");
  }

  /**
   * Runs as root too: the superuser's writes ignore permission bits, so the store also honours the
   * owner-write bit of a directory it owns instead of relying on a failing write.
   */
  @Test
  void readOnlyDirectoryIsRefusedBeforeAnythingIsWritten() throws IOException {
    assumeTrue(posix(), "needs POSIX permissions");
    Path store = Files.createDirectory(dir.resolve("store"));
    Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("r-x------"));
    try {
      assertThatThrownBy(() -> FileKeyStore.open(store))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(store.toString())
          .hasMessageContaining("not writable");
      try (var listing = Files.list(store)) {
        assertThat(listing).isEmpty();
      }
    } finally {
      Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void symbolicLinkToADirectoryIsRefused() throws IOException {
    Path real = Files.createDirectory(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);

    assertThatThrownBy(() -> FileKeyStore.open(link))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("symbolic link");
    try (var listing = Files.list(real)) {
      assertThat(listing).isEmpty();
    }
  }

  @Test
  void symbolicLinkInPlaceOfTheLogIsRefusedAndItsTargetUntouched() throws IOException {
    Path store = Files.createDirectory(dir.resolve("store"));
    Path victim = Files.writeString(dir.resolve("victim.txt"), "precious");
    Files.createSymbolicLink(store.resolve("intents.log"), victim);

    assertThatThrownBy(() -> FileKeyStore.open(store))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("symbolic link");
    assertThat(victim).hasContent("precious");
  }

  @Test
  void filesAreCreatedReadableAndWritableByTheOwnerOnly() throws IOException {
    assumeTrue(posix(), "needs POSIX permissions");
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(pending("order-1"));
      assertThat(Files.getPosixFilePermissions(dir.resolve("intents.log"))).isEqualTo(ownerOnly);
      assertThat(Files.getPosixFilePermissions(dir.resolve("saferetry.lock"))).isEqualTo(ownerOnly);
      assertThat(Files.getPosixFilePermissions(dir.resolve("intents.mark"))).isEqualTo(ownerOnly);
      store.purgeExpired(Intents.T0);
      assertThat(Files.getPosixFilePermissions(dir.resolve("intents.log"))).isEqualTo(ownerOnly);
      assertThat(Files.getPosixFilePermissions(dir.resolve("intents.mark"))).isEqualTo(ownerOnly);
    }
  }

  @Test
  void storeCreatesOnlyItsOwnFilesInTheDirectory() throws IOException {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(pending("order-1"));
    }
    try (var listing = Files.list(dir)) {
      assertThat(listing.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(
              "intents.log", "intents.mark", "saferetry.lock", "saferetry.owner");
    }
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
