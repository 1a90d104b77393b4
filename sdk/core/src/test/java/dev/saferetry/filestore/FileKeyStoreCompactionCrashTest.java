package dev.saferetry.filestore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IntentState;
import dev.saferetry.testing.ChildJvm;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A process killed with SIGKILL at each step of a compaction — in the background or a purge — while
 * callers keep beginning intents: after a restart every acknowledged begin is there with its key,
 * every completion the compaction copied too, and the compaction file is finished or removed.
 */
class FileKeyStoreCompactionCrashTest {
  private static final int SIGKILL_EXIT = 128 + 9;
  private static final String NEVER = Long.toString(Long.MAX_VALUE);
  private static final String SMALL = Long.toString(64 * 1024);

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} compaction killed after step {1}")
  @CsvSource({
    "purge, copied, false",
    "purge, caught-up, false",
    "purge, sealed, true",
    "purge, installed, false",
    "background, copied, false",
    "background, installed, false"
  })
  void aProcessKilledDuringACompactionLosesNoAcknowledgedBegin(
      String kind, String step, boolean sealedFileLeft) throws Exception {
    Map<String, String> keys = new LinkedHashMap<>();
    boolean underLock = step.equals("sealed") || step.equals("installed");
    try (ChildJvm child =
        ChildJvm.start(
            CompactionCrashMain.class,
            dir.toString(),
            step,
            kind.equals("background") ? SMALL : NEVER)) {
      child.awaitLine("OPENED");
      for (int i = 0; i < 6; i++) {
        begin(child, "before-" + i, keys);
      }
      for (int i = 0; i < 3; i++) {
        child.send("complete before-" + i);
        child.awaitLine("COMPLETED");
      }
      child.send("replay before-0 2000"); // superseded records: what a compaction drops
      if (kind.equals("purge")) {
        child.awaitLine("REPLAYED");
        child.send("purge");
      } // else the background compaction starts, and stops, while the replays may still run
      child.awaitLine("PAUSED " + step);
      if (!underLock) {
        for (int i = 0; i < 4; i++) {
          begin(child, "during-" + i, keys); // callers go on while the compaction runs
        }
      }
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    assertThat(dir.resolve("intents.log.compact").toFile().exists())
        .as("compaction file left by the kill")
        .isEqualTo(!step.equals("installed"));
    if (step.equals("installed")) {
      // renamed, but the mark still names the log it replaced: the seal vouches for the new one
      long logGeneration = ByteBuffer.wrap(StoreFileBytes.read(dir)).getLong(8);
      long markGeneration = ByteBuffer.wrap(StoreFileBytes.readMark(dir)).getLong(8);
      assertThat(markGeneration).isNotEqualTo(logGeneration);
    }

    for (int open = 0; open < 2; open++) {
      try (FileKeyStore store = FileKeyStore.open(dir)) {
        keys.forEach(
            (id, key) ->
                assertThat(store.find(CompactionCrashMain.CHARGES, id).orElseThrow().key().value())
                    .as(id)
                    .isEqualTo(key));
        for (int i = 0; i < 3; i++) {
          assertThat(store.find(CompactionCrashMain.CHARGES, "before-" + i).orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
        }
        assertThat(store.pending()).hasSize(keys.size() - 3);
      }
      assertThat(dir.resolve("intents.log.compact")).doesNotExist();
    }
    if (sealedFileLeft) {
      // the sealed file was installed: the log is the compacted one, without the 2,000 replays
      assertThat(StoreFileBytes.recordsEnd(dir)).isLessThan(4096);
    }
  }

  private static void begin(ChildJvm child, String id, Map<String, String> keys) throws Exception {
    child.send("begin " + id);
    keys.put(id, child.awaitLine("BEGUN " + id).split(" ")[2]);
  }
}
