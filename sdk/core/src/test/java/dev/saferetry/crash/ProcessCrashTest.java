package dev.saferetry.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.crash.CrashClientMain.Mode;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client process dies by SIGKILL at each dangerous point of a charge; a restarted process finds
 * the intent pending, re-drives it with the same key, and the server performs the charge exactly
 * once.
 */
class ProcessCrashTest {
  private static final String INTENT = "order-1/charge";
  private static final String OPERATION = "POST /v1/charges";
  private static final int SIGKILL_EXIT = 128 + 9;

  @TempDir Path dir;
  private SideEffectServer server;

  @BeforeEach
  void startServer() throws Exception {
    server = new SideEffectServer();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void killedAfterThePendingRecordIsDurableAndBeforeSendingChargesOnceOnRestart() throws Exception {
    String key;
    try (ChildJvm child = start(Mode.HANG_BEFORE_SEND)) {
      key = child.awaitLine("PENDING_DURABLE").split(" ")[1];
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    assertThat(server.keysReceived()).isEmpty();

    Redriven redriven = redrive();

    assertThat(redriven.pendingOnOpen()).containsExactly(INTENT + " " + key + " " + OPERATION);
    assertThat(redriven.key()).isEqualTo(key);
    assertThat(redriven.replayed()).isFalse();
    assertExactlyOneSideEffect(key);
  }

  @Test
  void killedWhileTheServerExecutesTheRequestChargesOnceOnRestart() throws Exception {
    server.holdFirstAnswer();
    String key;
    try (ChildJvm child = start(Mode.HANG_IN_FLIGHT)) {
      key = child.awaitLine("PENDING_DURABLE").split(" ")[1];
      assertThat(server.awaitExecuted()).isTrue();
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    server.release();
    assertThat(server.sideEffects(key)).isEqualTo(1);

    Redriven redriven = redrive();

    assertThat(redriven.pendingOnOpen()).containsExactly(INTENT + " " + key + " " + OPERATION);
    assertThat(redriven.key()).isEqualTo(key);
    assertThat(redriven.replayed()).isTrue();
    assertExactlyOneSideEffect(key);
  }

  @Test
  void killedAfterTheResponseAndBeforeTheCompletionRecordChargesOnceOnRestart() throws Exception {
    String key;
    try (ChildJvm child = start(Mode.HANG_BEFORE_COMPLETE)) {
      key = child.awaitLine("PENDING_DURABLE").split(" ")[1];
      assertThat(child.awaitLine("RESPONSE")).isEqualTo("RESPONSE " + key + " 200");
      assertThat(child.kill()).isEqualTo(SIGKILL_EXIT);
    }
    assertThat(server.sideEffects(key)).isEqualTo(1);

    Redriven redriven = redrive();

    assertThat(redriven.pendingOnOpen()).containsExactly(INTENT + " " + key + " " + OPERATION);
    assertThat(redriven.key()).isEqualTo(key);
    assertThat(redriven.replayed()).isTrue();
    assertExactlyOneSideEffect(key);
  }

  private ChildJvm start(Mode mode) throws Exception {
    return ChildJvm.start(
        CrashClientMain.class, dir.toString(), server.baseUrl(), mode.name(), INTENT);
  }

  /** What the restarted process saw and did. */
  private record Redriven(List<String> pendingOnOpen, String key, boolean replayed) {}

  private Redriven redrive() throws Exception {
    try (ChildJvm restarted = start(Mode.REDRIVE)) {
      List<String> lines = restarted.linesThrough("DONE");
      assertThat(restarted.awaitLine("PENDING_AFTER")).isEqualTo("PENDING_AFTER 0");
      assertThat(restarted.waitForExit()).isZero();
      List<String> pending =
          lines.stream().filter(l -> l.startsWith("PENDING ")).map(l -> l.substring(8)).toList();
      String[] done = lines.get(lines.size() - 1).split(" ");
      return new Redriven(pending, done[1], Boolean.parseBoolean(done[3]));
    }
  }

  private void assertExactlyOneSideEffect(String key) {
    assertThat(server.keysReceived()).isNotEmpty().containsOnly(key);
    assertThat(server.sideEffects(key)).isEqualTo(1);
    assertThat(server.totalSideEffects()).isEqualTo(1);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      IntentRecord record =
          store.find(new IntentScope(IntentScope.DEFAULT_TENANT, OPERATION), INTENT).orElseThrow();
      assertThat(record.key().value()).isEqualTo(key);
      assertThat(record.state()).isEqualTo(IntentState.SUCCEEDED);
      assertThat(record.resourceId()).isEqualTo("ch_1");
      assertThat(store.pending()).isEmpty();
    }
  }
}
