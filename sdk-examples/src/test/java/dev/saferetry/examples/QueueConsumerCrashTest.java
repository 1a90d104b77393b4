package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import dev.saferetry.testing.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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
  static final String AMQP_URL =
      System.getenv().getOrDefault("SAFERETRY_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672");
  static final String PG_URL =
      System.getenv()
          .getOrDefault("SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  final String queue = "saferetry-inbox-test-" + run;
  String jdbcUrl;
  String pgSchema;
  com.rabbitmq.client.Connection amqp;
  Channel channel;

  @BeforeEach
  void connect(@TempDir Path dir) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(AMQP_URL);
    factory.setConnectionTimeout(3000);
    try {
      amqp = factory.newConnection("saferetry-crash-test");
    } catch (Exception e) {
      assumeTrue(false, "RabbitMQ does not answer (" + e + "); set SAFERETRY_AMQP_URL to run this");
    }
    channel = amqp.createChannel();
    QueueConsumer.declare(channel, queue);
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
    if (channel != null) {
      channel.queueDelete(queue);
      channel.queueDelete(queue + ".dead-letter");
      amqp.close();
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
      AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().messageId("m-" + i).build();
      String body = "{\"account\":\"acct-1\",\"amount\":" + (i * 100) + "}";
      channel.basicPublish("", queue, props, body.getBytes(StandardCharsets.UTF_8));
    }
    String[] common = {"--amqp-url", AMQP_URL, "--queue", queue, "--jdbc-url", jdbcUrl};

    try (ChildJvm first = ChildJvm.start(QueueCrashMain.class, with(common, "--crash-on", "m-3"))) {
      first.awaitLine(l -> l.equals("COMMITTED m-3 APPLIED"), 120);
      first.kill(); // SIGKILL: the ack for m-3 is never sent
    }
    assertThat(ledger()).containsEntry("m-3", 1L).doesNotContainKeys("m-4", "m-5");

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
    assertThat(ledger())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("m-1", 1L, "m-2", 1L, "m-3", 1L, "m-4", 1L, "m-5", 1L));
  }

  private static String[] with(String[] args, String... more) {
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  /** Ledger entries per message id. */
  private Map<String, Long> ledger() throws SQLException {
    Map<String, Long> entries = new HashMap<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT message_id, COUNT(*) FROM ledger_entries GROUP BY message_id")) {
      while (rs.next()) {
        entries.put(rs.getString(1), rs.getLong(2));
      }
    }
    return entries;
  }
}
