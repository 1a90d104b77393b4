package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One store directory, one process: never two writers interleaving records. */
class FileKeyStoreLockTest {
  @TempDir Path dir;

  @Test
  void secondProcessCannotOpenALockedDirectoryUntilTheFirstCloses() throws Exception {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(pending("order-1"));
    }
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      assertThat(child.awaitLine("OPENED")).isEqualTo("OPENED 1");

      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("is locked by another process");

      child.send("close");
      child.awaitLine("CLOSED");
      assertThat(child.waitForExit()).isZero();
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(1);
    }
  }

  @Test
  void deletingTheLockFileDoesNotLetASecondProcessOpenOrCompactALiveStore() throws Exception {
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      child.send("begin order-1");
      String first = child.awaitLine("BEGUN order-1").split(" ")[2];

      Files.delete(dir.resolve("saferetry.lock"));
      assertLockedByAnotherProcess();

      child.send("purge"); // the live store replaces its log by a compacted one
      child.awaitLine("PURGED");
      assertLockedByAnotherProcess();

      child.send("begin order-2");
      String second = child.awaitLine("BEGUN order-2").split(" ")[2];
      Files.delete(dir.resolve("saferetry.lock"));
      assertLockedByAnotherProcess();

      child.send("close");
      child.awaitLine("CLOSED");
      assertThat(child.waitForExit()).isZero();
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        assertThat(store.pending()).extracting(r -> r.key().value()).containsExactly(first, second);
      }
    }
  }

  private void assertLockedByAnotherProcess() {
    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("is locked by another process");
  }

  @Test
  void lockOfAKilledProcessIsReleasedByTheOperatingSystem() throws Exception {
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      child.kill();
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).isEmpty();
    }
  }

  @Test
  void secondOpenInTheSameProcessFailsAndLeavesTheFirstLockIntact() throws Exception {
    try (FileKeyStore first = FileKeyStore.open(dir)) {
      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining("is locked by another process");
      try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
        assertThat(child.waitForExit()).isNotZero();
        assertThat(child.err()).contains("is locked by another process");
      }
      first.begin(pending("order-1"));
    }
    try (FileKeyStore again = FileKeyStore.open(dir)) {
      assertThat(again.pending()).hasSize(1);
    }
  }
}
