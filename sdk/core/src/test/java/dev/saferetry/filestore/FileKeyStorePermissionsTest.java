package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.idempotency.KeyStoreException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store whose files or directory other users may write, or that another user owns, is refused and
 * left as it is: its records cannot be trusted. Files others may only read are narrowed.
 */
class FileKeyStorePermissionsTest {
  private static final int SOMEONE_ELSE = 4242;

  @TempDir Path parent;
  private Path dir;

  @BeforeEach
  void storeWithOneIntent() throws IOException {
    assumeTrue(
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
        "needs POSIX permissions");
    dir = Files.createDirectory(parent.resolve("store"));
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(pending("order-1"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"intents.log", "intents.mark", "saferetry.lock"})
  void aStoreFileOthersCanWriteIsRefusedAndLeftAsIs(String name) throws Exception {
    for (String mode : new String[] {"rw-rw----", "rw----rw-", "rw-rw-rw-"}) {
      Path file = dir.resolve(name);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
      byte[] bytes = Files.readAllBytes(file);

      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("can be written by other users")
          .hasMessageContaining("chmod 600");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo(mode);
      assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }
  }

  @Test
  void aLogOthersCanReadIsMadeOwnerOnlyWithAWarning() throws Exception {
    Path log = dir.resolve("intents.log");
    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));

    String output =
        StoreFileBytes.logOutputOf(
            () -> {
              try (FileKeyStore store = FileKeyStore.open(dir)) {
                assertThat(store.pending()).hasSize(1);
              }
              return null;
            });

    assertThat(output).contains("WARN").contains(log.toString()).contains("owner-only");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log)))
        .isEqualTo("rw-------");
  }

  @ParameterizedTest
  @ValueSource(strings = {"rwxrwx---", "rwx---rwx", "rwxrwxrwx", "rwxrwxrwt"})
  void aDirectoryOthersCanWriteIsRefused(String mode) throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode.replace('t', 'x')));
    if (mode.endsWith("t")) {
      assumeTrue(run("chmod", "+t", dir.toString()) == 0, "cannot set the sticky bit");
    }
    try {
      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("can be written by other users")
          .hasMessageContaining("chmod 700");
    } finally {
      run("chmod", "700", dir.toString());
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"intents.log", "intents.mark", "saferetry.lock", "."})
  void aStoreFileOrDirectoryOwnedByAnotherUserIsRefused(String name) throws Exception {
    Path path = dir.resolve(name).normalize();
    Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    try {
      Files.setAttribute(path, "unix:uid", SOMEONE_ELSE, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      assumeTrue(false, "needs root to give a file to another user; skipped");
    }
    try {
      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(path.toString())
          .hasMessageContaining("not to the user running the store");
    } finally {
      Files.setAttribute(path, "unix:uid", owner, LinkOption.NOFOLLOW_LINKS);
    }
  }

  @Test
  void aSymbolicLinkInPlaceOfTheMarkIsRefusedAndItsTargetUntouched() throws Exception {
    Path victim = Files.writeString(parent.resolve("victim.txt"), "precious");
    Files.delete(dir.resolve("intents.mark"));
    Files.createSymbolicLink(dir.resolve("intents.mark"), victim);

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("symbolic link");
    assertThat(victim).hasContent("precious");
  }

  private static int run(String... command) throws Exception {
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }
}
