package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.ChildJvm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer process commits its work and is SIGKILLed before the ack, against a real RabbitMQ: the
 * broker redelivers, and the restarted consumer applies nothing twice. Skipped when RabbitMQ
 * ({@code SAFERETRY_AMQP_URL}) does not answer. The ledger is in PostgreSQL ({@code
 * SAFERETRY_PG_URL}, a schema of its own) when it answers, in an H2 file otherwise.
 */
class QueueConsumerCrashTest {
  static final String PG_URL =
      System.getenv()
          .getOrDefault("SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  TestQueue queue;
  String jdbcUrl;
  String pgSchema;

  @BeforeEach
  void connect(@TempDir Path dir) throws Exception {
    queue = TestQueue.declare("saferetry-inbox-test-");
    try (Connection c = DriverManager.getConnection(PG_URL + "&connectTimeout=3");
        Statement s = c.createStatement()) {
      pgSchema = "qc_" + run;
      s.execute("CREATE SCHEMA " + pgSchema);
      jdbcUrl = PG_URL + "&currentSchema=" + pgSchema;
    } catch (SQLException e) {
      pgSchema = null;
      jdbcUrl = "jdbc:h2:" + dir.resolve("ledger") + ";WRITE_DELAY=0";
    }
  }

  @AfterEach
  void cleanUp() throws Exception {
    if (queue != null) {
      queue.close();
    }
    if (pgSchema != null) {
      try (Connection c = DriverManager.getConnection(PG_URL);
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + pgSchema + " CASCADE");
      }
    }
  }

  @Test
  void aConsumerKilledBetweenCommitAndAckAppliesNothingTwiceAfterRedelivery() throws Exception {
    for (int i = 1; i <= 5; i++) {
      queue.publish("m-" + i, "{\"account\":\"acct-1\",\"amount\":" + (i * 100) + "}");
    }
    String[] common = {
      "--amqp-url", TestQueue.AMQP_URL, "--queue", queue.name, "--jdbc-url", jdbcUrl
    };

    try (ChildJvm first = ChildJvm.start(QueueCrashMain.class, with(common, "--crash-on", "m-3"))) {
      first.awaitLine(l -> l.equals("COMMITTED m-3 APPLIED"), 120);
      first.kill(); // SIGKILL: the ack for m-3 is never sent
    }
    assertThat(TestQueue.ledger(jdbcUrl)).containsEntry("m-3", 1L).doesNotContainKeys("m-4", "m-5");

    Map<String, String> seen = new HashMap<>();
    try (ChildJvm restarted = ChildJvm.start(QueueConsumer.class, common)) {
      while (seen.size() < 3) {
        String line = restarted.awaitLine(l -> l.matches("[A-Z]+ m-\\d"), 120);
        seen.put(line.substring(line.indexOf(' ') + 1), line.substring(0, line.indexOf(' ')));
      }
      restarted.kill();
    }

    assertThat(seen)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("m-3", "DUPLICATE", "m-4", "APPLIED", "m-5", "APPLIED"));
    assertThat(TestQueue.ledger(jdbcUrl))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("m-1", 1L, "m-2", 1L, "m-3", 1L, "m-4", 1L, "m-5", 1L));
  }

  private static String[] with(String[] args, String... more) {
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
