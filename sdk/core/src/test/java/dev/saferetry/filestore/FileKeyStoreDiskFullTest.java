package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.pending;
import static dev.saferetry.filestore.Intents.succeeded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.internal.filestore.LogStore;
import dev.saferetry.internal.filestore.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, for real: a small tmpfs whose writes fail, and an ext4 file system on a device whose
 * writes fail so that the sync fails. A full disk refuses the records it cannot keep, never one
 * that was acknowledged, and the store works again once space returns, without a reopen.
 */
class FileKeyStoreDiskFullTest {
  private static final int MAX_BEGINS = 5_000;

  @TempDir Path parent;

  @Test
  void aFullDiskRefusesNewIntentsAndTheStoreRecoversWithoutAReopenWhenSpaceReturns()
      throws Exception {
    try (SmallFileSystem fs = SmallFileSystem.tmpfs(parent, "256k")) {
      Path dir = fs.root();
      List<IntentRecord> acknowledged = new ArrayList<>();
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        acknowledged.add(store.begin(pending("before-full")).record());
        fs.fill();
        IntentRecord refused = null;
        // the space preallocated before the disk filled takes a few hundred begins first
        for (int i = 0; i < MAX_BEGINS && refused == null; i++) {
          IntentRecord candidate = pending("while-full-" + i);
          try {
            acknowledged.add(store.begin(candidate).record());
          } catch (KeyStoreException e) {
            assertThat(e).hasMessageContaining("No space left on device");
            refused = candidate;
          }
        }
        assertThat(refused).as("a begin refused for lack of space").isNotNull();
        assertThat(store.find(CHARGES, refused.intentId())).isEmpty();
        assertThat(store.pending()).containsExactlyElementsOf(acknowledged);

        fs.free();
        BeginResult again = store.begin(refused);
        assertThat(again.created()).isTrue();
        acknowledged.add(again.record());
      }
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        assertThat(store.pending()).containsExactlyElementsOf(acknowledged);
      }
    }
  }

  @Test
  void aFailedSyncLosesOnlyTheRecordsItCoveredAndTheLogIsRewrittenWhenSpaceReturns()
      throws Exception {
    try (SmallFileSystem fs = SmallFileSystem.ext4OnFullableDevice(parent)) {
      Path dir = Files.createDirectory(fs.root().resolve("store"));
      List<String> acknowledged = new ArrayList<>(List.of("kept"));
      IntentRecord done = pending("done");
      String lost = null;
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        store.begin(pending("kept"));
        store.begin(done);
        fs.fill();
        store.complete(succeeded(done, "ch_1")); // appended only: it waits in the page cache
        // appends within blocks the device already holds (preallocated ones too) still sync; the
        // first new block fails
        for (int i = 0; i < MAX_BEGINS && lost == null; i++) {
          IntentRecord candidate = pending("while-full-" + i);
          try {
            store.begin(candidate);
            acknowledged.add(candidate.intentId());
          } catch (KeyStoreException e) {
            assertThat(e).hasMessageContaining("failed a write or sync");
            lost = candidate.intentId();
          }
        }
        assertThat(lost).as("a begin whose sync failed").isNotNull();
        assertThat(store.find(CHARGES, lost)).isEmpty();
        assertThatThrownBy(() -> store.begin(pending("still-full")))
            .isInstanceOf(KeyStoreException.class)
            .hasMessageContaining("the next call tries again");

        fs.free();
        assertThat(store.begin(pending("after")).created()).isTrue();
        acknowledged.add("after");
        assertThat(store.pending())
            .extracting(IntentRecord::intentId)
            .containsExactlyElementsOf(acknowledged);
      }
      fs.remount(); // read what the device holds, not the page cache
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        assertThat(store.pending())
            .extracting(IntentRecord::intentId)
            .containsExactlyElementsOf(acknowledged);
        assertThat(store.find(CHARGES, "done")).contains(succeeded(done, "ch_1"));
        assertThat(store.find(CHARGES, lost)).isEmpty();
      }
    }
  }

  @Test
  void compactionOnOpenWithAFullDiskIsAWarningAndTheStoreOpensAsItIs() throws Exception {
    try (SmallFileSystem fs = SmallFileSystem.tmpfs(parent, "4m")) {
      Path dir = fs.root();
      IntentRecord first = pending("order-1");
      try (LogStore store = LogStore.open(dir, new StoreOptions(0, false, Long.MAX_VALUE))) {
        store.begin(first);
        for (int i = 0; i < 20_000; i++) {
          store.complete(succeeded(first, "ch_1")); // re-sent and replayed many times
        }
      }
      long size = StoreFileBytes.size(dir);
      assertThat(size).isGreaterThan(StoreOptions.AUTO_COMPACT_BYTES);
      fs.fill();
      for (int i = 0; i < 3; i++) {
        String output =
            StoreFileBytes.logOutputOf(
                () -> {
                  try (LogStore store = LogStore.open(dir, 0)) {
                    store.awaitBackgroundWork(); // the compaction this log calls for
                    assertThat(store.find(CHARGES, "order-1")).contains(succeeded(first, "ch_1"));
                  }
                  return null;
                });
        assertThat(output).contains("WARN").contains("Could not compact");
      }
      assertThat(StoreFileBytes.openFilesUnder(dir)).isEmpty();
      assertThat(StoreFileBytes.size(dir)).isEqualTo(size);
      assertThat(dir.resolve("intents.log.compact")).doesNotExist();
      fs.free();
      try (LogStore store = LogStore.open(dir, 0)) {
        store.awaitBackgroundWork();
        assertThat(StoreFileBytes.recordsEnd(dir)).isLessThan(1024);
        assertThat(store.stats().compactions()).isEqualTo(1);
      }
    }
  }
}
