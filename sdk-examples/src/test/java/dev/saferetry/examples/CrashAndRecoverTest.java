package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.CrashDrill;
import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.WireLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the example as two real child JVMs; the first is killed with SIGKILL mid-request. The second
 * process waits for real on the server's {@code 409 Retry-After: 1} (it is a separate JVM, so no
 * fake sleeper reaches it): about a second.
 */
class CrashAndRecoverTest {
  @Test
  @Timeout(120)
  void secondProcessFindsThePendingIntentAndRedrivesItWithTheSameKey() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Report report = CrashDrill.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);

    assertThat(report.sideEffects()).as(out).isEqualTo(1);
    assertThat(report.passed()).as(out).isTrue();
    List<WireLog.Row> attempts = Rows.attempts(report);
    assertThat(attempts.get(0).result()).isEqualTo("KILLED");
    assertThat(attempts).hasSizeGreaterThan(1);
    assertThat(attempts).extracting(WireLog.Row::key).containsOnly(attempts.get(0).key());
    assertThat(attempts).extracting(WireLog.Row::intentId).containsOnly(CrashDrill.INTENT);
    assertThat(attempts.get(attempts.size() - 1).result()).isEqualTo("201");
    assertThat(Rows.notes(report))
        .contains("process 2 found pending intent " + CrashDrill.INTENT)
        .anyMatch(n -> n.startsWith("process 1 killed (SIGKILL"));
    // The first request committed while its client was dead: the re-drive got it replayed.
    assertThat(out).contains("replayed true");
  }
}
