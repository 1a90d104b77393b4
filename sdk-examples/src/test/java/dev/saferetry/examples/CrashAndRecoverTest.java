package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the drill with two real child JVMs; the first is killed with SIGKILL mid-request. The second
 * process waits for real on the server's {@code 409 Retry-After: 1} (it is a separate JVM, so no
 * fake sleeper reaches it): about a second.
 */
class CrashAndRecoverTest {
  @Test
  @Timeout(90)
  void secondProcessFindsThePendingIntentAndRedrivesItWithTheSameKey() throws Exception {
    Output out = new Output();
    try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
      Report report = CrashDrill.run(sandbox, out.stream);

      assertThat(report.sideEffects()).isEqualTo(1);
      assertThat(report.passed()).isTrue();
      List<WireLog.Row> attempts = Output.attempts(report);
      assertThat(attempts.get(0).result()).isEqualTo("KILLED");
      assertThat(attempts).extracting(WireLog.Row::key).containsOnly(attempts.get(0).key());
      assertThat(attempts).extracting(WireLog.Row::intentId).containsOnly(CrashDrill.INTENT);
      assertThat(attempts.get(attempts.size() - 1).result()).isEqualTo("201");
      assertThat(Output.notes(report))
          .contains("process 2 found pending intent " + CrashDrill.INTENT)
          .anyMatch(n -> n.startsWith("process 1 killed (SIGKILL"));
      // The first request committed while its client was dead: the re-drive got it replayed.
      assertThat(out.text()).contains("(replayed by the server: true)");
    }
  }
}
