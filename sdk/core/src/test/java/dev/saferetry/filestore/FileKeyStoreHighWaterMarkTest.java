package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.T0;
import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log that is shorter than what was synced, empty, missing or replaced is valid on its own; the
 * high-water mark ({@code intents.mark}) is what tells. Each case is refused with nothing changed.
 */
class FileKeyStoreHighWaterMarkTest {
  private static final int SIGKILL_EXIT = 128 + 9;

  @TempDir Path dir;

  /** Begins three intents, reopening each time; returns the log's size after each. */
  private long[] threeSyncedIntents() {
    long[] ends = new long[3];
    for (int i = 0; i < 3; i++) {
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        store.begin(pending("order-" + i));
      }
      ends[i] = recordsEnd();
    }
    return ends;
  }

  @Test
  void aLogTruncatedAtARecordBoundaryIsRefusedAndLeftAsIs() throws Exception {
    long[] ends = threeSyncedIntents();
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) ends[1]));

    assertRefused("offset " + ends[1], "records up to offset " + ends[2] + " were synced");
  }

  @Test
  void anEmptiedLogIsRefusedAndLeftEmpty() throws Exception {
    threeSyncedIntents();
    StoreFileBytes.write(dir, new byte[0]);

    assertRefused("is empty", "were synced");
    assertThat(StoreFileBytes.size(dir)).isZero();
  }

  @Test
  void aDeletedLogIsRefusedAndNotCreatedAgain() throws Exception {
    threeSyncedIntents();
    Files.delete(dir.resolve(StoreFileBytes.LOG));

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("nothing was changed");
    assertThat(dir.resolve(StoreFileBytes.LOG)).doesNotExist();
  }

  @Test
  void anOlderCopyOfTheLogPutBackAfterACompactionIsRefused() throws Exception {
    threeSyncedIntents();
    Path copy =
        Files.copy(
            dir.resolve(StoreFileBytes.LOG), dir.getParent().resolve(dir.getFileName() + ".bak"));
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.purgeExpired(T0); // a new file, a new generation
      store.begin(pending("order-after-backup"));
    }
    Files.copy(copy, dir.resolve(StoreFileBytes.LOG), StandardCopyOption.REPLACE_EXISTING);
    Files.delete(copy);

    assertRefused("offset 8", "replaced");
  }

  @Test
  void aDeletedMarkIsRefusedUntilTheOperatorAcceptsTheLogWithAnEmptyMark() throws Exception {
    threeSyncedIntents();
    Files.delete(dir.resolve(StoreFileBytes.MARK));
    byte[] log = StoreFileBytes.read(dir);

    assertThatThrownBy(() -> FileKeyStore.open(dir))
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("intents.mark is missing")
        .hasMessageContaining("create an empty owner-only intents.mark");
    assertThat(StoreFileBytes.read(dir)).isEqualTo(log);
    assertThat(dir.resolve(StoreFileBytes.MARK)).doesNotExist();

    Files.createFile(
        dir.resolve(StoreFileBytes.MARK),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    String output =
        StoreFileBytes.logOutputOf(
            () -> {
              try (FileKeyStore store = FileKeyStore.open(dir)) {
                assertThat(store.pending()).hasSize(3);
              }
              return null;
            });
    assertThat(output).contains("WARN").contains("accepting");
    assertThat(dir.resolve(StoreFileBytes.MARK)).isNotEmptyFile();
  }

  @Test
  void aStoreThatNeverSyncedARecordMayLoseItsLogWithoutComplaint() {
    FileKeyStore.open(dir).close();
    try {
      Files.delete(dir.resolve(StoreFileBytes.LOG));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.begin(pending("order-1")).created()).isTrue();
    }
  }

  @Test
  void aCompactedLogWhoseMarkStillNamesTheLogItReplacedIsVouchedForByItsSeal() throws Exception {
    threeSyncedIntents();
    byte[] markBefore = StoreFileBytes.readMark(dir);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.purgeExpired(T0); // a new generation, whose seal names the old one
      store.begin(pending("order-after"));
    }
    StoreFileBytes.writeMark(dir, markBefore); // as if the mark's update never reached the disk

    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(4);
    }
    assertThat(StoreFileBytes.readMark(dir)).isNotEqualTo(markBefore); // vouched for again
  }

  @Test
  void aLogTwoCompactionsAheadOfItsMarkIsRefused() throws Exception {
    threeSyncedIntents();
    byte[] markBefore = StoreFileBytes.readMark(dir);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.purgeExpired(T0);
      store.purgeExpired(T0); // its seal names the first compaction's generation, not the mark's
    }
    StoreFileBytes.writeMark(dir, markBefore);

    assertRefused("offset 8", "replaced");
  }

  @Test
  void aCompactionInterruptedAfterTheMarkMovedIsFinishedOnOpen() throws Exception {
    threeSyncedIntents();
    // The same store compacted in a copy gives the files a crash would leave: the old log, the
    // compacted file not yet renamed, and the mark already pointing at the compacted file.
    Path copy = Files.createDirectory(dir.resolveSibling(dir.getFileName() + "-copy"));
    for (String name : List.of(StoreFileBytes.LOG, StoreFileBytes.MARK)) {
      Files.copy(dir.resolve(name), copy.resolve(name));
    }
    try (FileKeyStore store = FileKeyStore.open(copy)) {
      store.purgeExpired(T0);
    }
    Files.copy(copy.resolve(StoreFileBytes.LOG), dir.resolve("intents.log.compact"));
    Files.copy(
        copy.resolve(StoreFileBytes.MARK),
        dir.resolve(StoreFileBytes.MARK),
        StandardCopyOption.REPLACE_EXISTING);
    byte[] compacted = Files.readAllBytes(copy.resolve(StoreFileBytes.LOG));

    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending())
          .extracting(IntentRecord::intentId)
          .containsExactly("order-0", "order-1", "order-2");
    }
    assertThat(StoreFileBytes.read(dir)).isEqualTo(compacted);
    assertThat(dir.resolve("intents.log.compact")).doesNotExist();
  }

  @Test
  void theMarkOfAProcessKilledWithSigkillStillCatchesATruncationAtARecordBoundary()
      throws Exception {
    List<String> keys = new ArrayList<>();
    long beforeLast = 0;
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      for (int i = 0; i < 5; i++) {
        beforeLast = recordsEnd(); // every earlier begin is synced: the next record starts here
        child.send("begin order-" + i);
        keys.add(child.awaitLine("BEGUN order-" + i).split(" ")[2]);
      }
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    // the mark on disk is what the killed process wrote after its syncs, nothing else
    byte[] bytes = StoreFileBytes.read(dir);
    StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) beforeLast));

    assertRefused("offset " + beforeLast, "were synced");

    StoreFileBytes.write(dir, bytes);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).extracting(r -> r.key().value()).containsExactlyElementsOf(keys);
    }
  }

  @Test
  void anUnsyncedCompletionTornAfterASigkillIsCutAndTheIntentStaysPending() throws Exception {
    String key;
    try (ChildJvm child = ChildJvm.start(LockHolderMain.class, dir.toString())) {
      child.awaitLine("OPENED");
      child.send("begin order-1");
      key = child.awaitLine("BEGUN order-1").split(" ")[2];
      long synced = recordsEnd();
      child.send("complete order-1"); // appended, never synced
      child.awaitLine("COMPLETED");
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
      // a power failure after the kill tears the unsynced completion
      byte[] bytes = StoreFileBytes.read(dir);
      assertThat(StoreFileBytes.recordsEnd(bytes)).isGreaterThan(synced);
      StoreFileBytes.write(dir, Arrays.copyOf(bytes, (int) synced + 11));

      String output =
          StoreFileBytes.logOutputOf(
              () -> {
                try (FileKeyStore store = FileKeyStore.open(dir)) {
                  IntentRecord r = store.find(CHARGES, "order-1").orElseThrow();
                  assertThat(r.key().value()).isEqualTo(key);
                  assertThat(r.state()).isEqualTo(IntentState.PENDING);
                }
                return null;
              });
      assertThat(output).contains("Cut off a torn record").contains("offset " + synced);
      assertThat(dir.resolve("intents.log.torn-" + synced)).hasSize(11);
    }
  }

  @Test
  void aDurableBeginCostsExactlyOneSyncCallTheMarkNone() throws Exception {
    assumeTrue(new ProcessBuilder("strace", "-V").start().waitFor() == 0, "needs strace; skipped");
    Path trace = dir.resolveSibling(dir.getFileName() + ".strace");
    int begins = 20;
    try (ChildJvm child =
        ChildJvm.startUnder(
            List.of(
                "strace", "-f", "-qq", "-e", "trace=fsync,fdatasync,write", "-o", trace.toString()),
            LockHolderMain.class,
            dir.toString())) {
      child.awaitLine("OPENED");
      for (int i = 0; i < begins; i++) { // one at a time: no two begins can share a sync
        child.send("begin order-" + i);
        child.awaitLine("BEGUN order-" + i);
      }
      child.send("close");
      child.awaitLine("CLOSED");
      child.waitForExit();
    }
    List<String> lines = Files.readAllLines(trace);
    Files.delete(trace);
    int from = indexOfLine(lines, "write(1, \"OPENED");
    int to = indexOfLine(lines, "write(1, \"BEGUN order-" + (begins - 1));
    assumeTrue(from >= 0 && to > from, "strace could not trace the child here; skipped");
    List<String> between = lines.subList(from, to);
    assertThat(between.stream().filter(l -> l.contains("fdatasync(")).count()).isEqualTo(begins);
    assertThat(between.stream().filter(l -> l.contains(" fsync(")).count()).isZero();
  }

  private static int indexOfLine(List<String> lines, String fragment) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(fragment)) {
        return i;
      }
    }
    return -1;
  }

  private void assertRefused(String where, String why) throws IOException {
    StoreFileBytes.assertOpenRefusedChangingNothing(dir, where, why);
  }

  /** The end of the log's records (the file may go on with preallocated zeros). */
  private long recordsEnd() {
    try {
      return StoreFileBytes.recordsEnd(dir);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
