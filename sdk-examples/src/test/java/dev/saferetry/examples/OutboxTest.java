package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.examples.support.ChildJava;
import dev.saferetry.examples.support.OutboxDrill;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the outbox example as real processes: orders committed and rolled back with their intents,
 * relay process 1 killed with SIGKILL mid-charge, relay process 2 finishing. One charge per
 * committed order, none for a rolled-back one.
 */
class OutboxTest {
  private static final String PG_URL =
      System.getenv()
          .getOrDefault("SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  @Test
  @Timeout(150)
  void oneChargePerCommittedOrderAfterARelayIsKilledOnH2() throws Exception {
    check(null);
  }

  @Test
  @Timeout(150)
  void oneChargePerCommittedOrderAfterARelayIsKilledOnPostgres() throws Exception {
    assumeTrue(reachable(), "PostgreSQL not reachable at " + PG_URL + "; test skipped");
    check(PG_URL);
  }

  @Test
  @Timeout(120)
  void theExampleRunAsTheReadmeSaysChargesEachCommittedOrderOnceDespiteALostAnswer()
      throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                ChildJava.classPath(Outbox.class),
                Outbox.class.getName())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("VERDICT: OK, 9 charges");
    assertThat(p.exitValue()).as(out).isZero();
  }

  private static void check(String url) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    OutboxDrill.Result r =
        OutboxDrill.run(url, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(r.ok()).as(r.verdict() + "\n" + out).isTrue();
    assertThat(r.committed()).isEqualTo(9);
    assertThat(r.rolledBack()).isEqualTo(3);
    assertThat(r.charges()).isEqualTo(9);
    assertThat(r.chargedOrders()).isEqualTo(9);
    assertThat(r.pendingLeft()).isZero();
    assertThat(r.sentByFirstRelay()).isBetween(1, 8);
    assertThat(out).contains("relay-1 killed (SIGKILL").contains("relay-2: sent ");
    // It says which database it used, and how to name another.
    if (url == null) {
      assertThat(out)
          .contains("database: embedded H2, jdbc:h2:file:")
          .contains(OutboxDrill.URL_FORMAT);
    } else {
      assertThat(out).contains("database: PostgreSQL, ").contains(", new schema outbox_");
    }
    // The charge in flight when relay 1 died is re-sent by relay 2 with the same key.
    String inFlight = lastSending(out, "relay-1");
    assertThat(out).contains("relay-2: " + inFlight);
    assertThat(r.verdict()).startsWith("VERDICT: OK");
  }

  /** The last "sending ... key K" line of a relay, without its attempt number's prefix. */
  private static String lastSending(String out, String relay) {
    String last = null;
    for (String line : out.split("\n")) {
      if (line.startsWith("  " + relay + ": sending ")) {
        last = line.substring(line.indexOf("sending "));
      }
    }
    assertThat(last).as("relay 1 sent something").isNotNull();
    return last;
  }

  private static boolean reachable() {
    try (Connection c = DriverManager.getConnection(PG_URL)) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }
}
