package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator deletes {@code saferetry.lock} and replaces the log by a copy ({@code cp -p
 * intents.log x && mv x intents.log}: a new, unlocked file) while a process uses the store. Nothing
 * is locked any more, yet a second process is kept out by the owner record, and the running store
 * notices at its next sync that its log is gone and refuses work instead of acknowledging records
 * nobody will read.
 */
class FileKeyStoreLogReplacedTest {
  @TempDir Path dir;

  @Test
  void aCopyRenamedOverTheLogWithTheLockDeletedDoesNotLetASecondProcessOpenTheStore()
      throws Exception {
    String first;
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      child.send("begin order-1");
      first = child.awaitLine("BEGUN order-1").split(" ")[2];

      Files.delete(dir.resolve("saferetry.lock"));
      copyTheLogOverItself();

      assertThatThrownBy(() -> FileKeyStore.open(dir))
          .isInstanceOf(KeyStoreException.class)
          .hasMessageContaining("is locked by another process")
          .hasMessageContaining("saferetry.owner names process " + child.pid() + ", which is");

      child.send("begin order-2"); // the running store's log is now a file nobody reads
      assertThat(child.awaitLine("REFUSED order-2"))
          .contains("no longer names the file this store has open")
          .contains("the record was not stored");
      child.send("begin order-3");
      assertThat(child.awaitLine("REFUSED order-3")).contains("refuses all work");

      child.send("close");
      child.awaitLine("CLOSED");
      assertThat(child.waitForExit()).isZero();
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) { // the copy, with every confirmed begin
      assertThat(store.pending()).extracting(r -> r.key().value()).containsExactly(first);
      assertThat(store.find(Intents.CHARGES, "order-2")).isEmpty();
    }
  }

  @Test
  void withTheOwnerRecordDeletedTooTheRunningStoreFailsClosedAndTheCopyKeepsEveryConfirmedBegin()
      throws Exception {
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      child.send("begin order-1");
      String first = child.awaitLine("BEGUN order-1").split(" ")[2];

      Files.delete(dir.resolve("saferetry.lock"));
      Files.deleteIfExists(dir.resolve("saferetry.owner")); // (absent before owner records)
      copyTheLogOverItself();

      String second;
      try (FileKeyStore store = FileKeyStore.open(dir)) { // nothing names the child any more
        assertThat(store.pending()).extracting(r -> r.key().value()).containsExactly(first);
        second = store.begin(pending("order-2")).record().key().value();

        child.send("begin order-3"); // fails closed: never confirmed, never in the copy
        assertThat(child.awaitLine("REFUSED order-3")).contains("no longer names the file");
        child.send("purge"); // nor does it compact and rename its file over the copy
        assertThat(child.awaitLine("REFUSED purge")).contains("refuses all work");
        child.send("close");
        child.awaitLine("CLOSED");
        assertThat(child.waitForExit()).isZero();

        assertThat(store.pending()).extracting(r -> r.key().value()).containsExactly(first, second);
      }
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        assertThat(store.pending()).extracting(r -> r.key().value()).containsExactly(first, second);
        assertThat(store.find(Intents.CHARGES, "order-3")).isEmpty();
      }
    }
  }

  /** What a careless operator might do to "back up" a live log: a copy renamed over it. */
  private void copyTheLogOverItself() throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("sh", "-c", "cp -p intents.log x && mv x intents.log")
            .directory(dir.toFile())
            .inheritIO()
            .start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
  }
}
