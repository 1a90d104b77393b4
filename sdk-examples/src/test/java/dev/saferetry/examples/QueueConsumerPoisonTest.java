package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.saferetry.testing.ChildJvm;
import dev.saferetry.testing.FakeTime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.api.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Messages that fail do not stall {@link QueueConsumer}, against a real RabbitMQ: those that can
 * never succeed are dead-lettered at once, those whose processing failed are retried after growing
 * pauses and dead-lettered after the delivery limit, and the messages behind them are applied.
 * Skipped when RabbitMQ ({@code SAFERETRY_AMQP_URL}) does not answer. Failures are made by an H2
 * trigger on the ledger table, as a database error would.
 */
class QueueConsumerPoisonTest {
  static final String AMQP_URL =
      System.getenv().getOrDefault("SAFERETRY_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672");

  /** Inserts of these message ids that fail before one succeeds. */
  static final Map<String, AtomicInteger> FAILURES = new ConcurrentHashMap<>();

  final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  final String queue = "saferetry-poison-test-" + run;
  final String deadLetter = queue + ".dead-letter";
  final FakeTime time = new FakeTime();
  final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  com.rabbitmq.client.Connection amqp;
  Channel channel;
  String jdbcUrl;

  @BeforeEach
  void connect(@TempDir Path dir) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(AMQP_URL);
    factory.setConnectionTimeout(3000);
    try {
      amqp = factory.newConnection("saferetry-poison-test");
    } catch (Exception e) {
      assumeTrue(false, "RabbitMQ does not answer (" + e + "); set SAFERETRY_AMQP_URL to run this");
    }
    channel = amqp.createChannel();
    QueueConsumer.declare(channel, queue);
    jdbcUrl = "jdbc:h2:" + dir.resolve("ledger") + ";WRITE_DELAY=0";
  }

  @AfterEach
  void cleanUp() throws Exception {
    FAILURES.keySet().removeIf(id -> id.endsWith(run));
    if (amqp != null) {
      Channel cleanup = amqp.createChannel();
      cleanup.queueDelete(queue);
      cleanup.queueDelete(deadLetter);
      amqp.close();
    }
  }

  @Test
  void messagesThatCanNeverSucceedAreDeadLetteredAtOnceAndTheOthersApplied() throws Exception {
    publish("m-1", "{\"account\":\"acct-1\",\"amount\":100}");
    publish("m-2", "not json {");
    publish("m-3", "{\"account\":\"acct-1\"}");
    publish(null, "{\"account\":\"acct-1\",\"amount\":400}");
    publish("m-5", "{\"account\":\"acct-1\",\"amount\":500}");
    List<String> seen = new ArrayList<>();
    String[] args = {"--amqp-url", AMQP_URL, "--queue", queue, "--jdbc-url", jdbcUrl};

    try (ChildJvm consumer = ChildJvm.start(QueueConsumer.class, args)) {
      for (String l = ""; !l.equals("APPLIED m-5"); ) {
        l = consumer.awaitLine(line -> line.matches("[A-Z-]+ (m-\\d|null).*"), 60);
        seen.add(l);
      }
    }

    assertThat(seen)
        .containsExactly(
            "APPLIED m-1",
            "DEAD-LETTERED m-2: the body is not JSON",
            "DEAD-LETTERED m-3: not a ledger entry (account, amount)",
            "DEAD-LETTERED null: no message-id",
            "APPLIED m-5");
    assertThat(deadLettered(3)).containsExactly("m-2 rejected", "m-3 rejected", "null rejected");
    assertThat(ledger()).containsExactlyInAnyOrderEntriesOf(Map.of("m-1", 1L, "m-5", 1L));
    assertThat(channel.messageCount(queue)).isZero();
  }

  @Test
  void aFailedMessageIsRetriedAfterGrowingPausesAndAppliedOnce() throws Exception {
    String flaky = "flaky-" + run;
    publish(flaky, "{\"account\":\"acct-1\",\"amount\":100}");
    publish("m-2", "{\"account\":\"acct-1\",\"amount\":200}");

    List<String> seen;
    try (QueueConsumer consumer = failingTwice(flaky)) {
      consumer.consume(queue, lines::add);
      seen = linesThrough("APPLIED m-2");
    }

    assertThat(seen).hasSize(4);
    assertThat(seen.get(0)).startsWith("RETRYING " + flaky + " (delivery 1): ");
    assertThat(seen.get(1)).startsWith("RETRYING " + flaky + " (delivery 2): ");
    assertThat(seen.subList(2, 4)).containsExactly("APPLIED " + flaky, "APPLIED m-2");
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(ledger()).containsExactlyInAnyOrderEntriesOf(Map.of(flaky, 1L, "m-2", 1L));
    assertThat(channel.messageCount(deadLetter)).isZero();
  }

  @Test
  void aMessageThatKeepsFailingIsDeadLetteredAfterTheDeliveryLimit() throws Exception {
    String broken = "broken-" + run;
    publish(broken, "{\"account\":\"acct-1\",\"amount\":100}");
    publish("m-2", "{\"account\":\"acct-1\",\"amount\":200}");
    FAILURES.put(broken, new AtomicInteger(Integer.MAX_VALUE));

    List<String> seen;
    try (QueueConsumer consumer = new QueueConsumer(AMQP_URL, jdbcUrl, time)) {
      installTrigger();
      consumer.consume(queue, lines::add);
      seen = linesThrough("APPLIED m-2");
    }

    assertThat(seen).hasSize(QueueConsumer.DELIVERY_LIMIT + 1);
    for (int i = 0; i < QueueConsumer.DELIVERY_LIMIT - 1; i++) {
      assertThat(seen.get(i)).startsWith("RETRYING " + broken + " (delivery " + (i + 1) + "): ");
    }
    assertThat(seen.get(QueueConsumer.DELIVERY_LIMIT - 1))
        .startsWith("DEAD-LETTERED " + broken + " after 8 deliveries: ")
        .contains("the handler failed");
    assertThat(time.sleeps())
        .extracting(Duration::toSeconds)
        .containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 32L);
    assertThat(deadLettered(1)).containsExactly(broken + " rejected");
    assertThat(ledger()).containsExactlyInAnyOrderEntriesOf(Map.of("m-2", 1L));
  }

  @Test
  void theQueueDeadLettersAMessageWhoseConsumerDiesAtEveryDelivery() throws Exception {
    publish("m-1", "{\"account\":\"acct-1\",\"amount\":100}");

    for (int delivery = 1; delivery <= QueueConsumer.DELIVERY_LIMIT; delivery++) {
      Channel dying = amqp.createChannel();
      GetResponse got = dying.basicGet(queue, false);
      assertThat(got).as("delivery " + delivery).isNotNull();
      dying.close(); // unacknowledged: the broker takes it back and counts the delivery
    }

    assertThat(deadLettered(1)).containsExactly("m-1 delivery_limit");
    assertThat(channel.messageCount(queue)).isZero();
  }

  private QueueConsumer failingTwice(String messageId) throws Exception {
    FAILURES.put(messageId, new AtomicInteger(2));
    QueueConsumer consumer = new QueueConsumer(AMQP_URL, jdbcUrl, time);
    installTrigger();
    return consumer;
  }

  private void installTrigger() throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TRIGGER IF NOT EXISTS FAIL_LEDGER BEFORE INSERT ON ledger_entries FOR EACH ROW"
              + " CALL '"
              + FailInsert.class.getName()
              + "'");
    }
  }

  private void publish(String id, String body) throws Exception {
    AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().messageId(id).build();
    channel.basicPublish("", queue, props, body.getBytes(StandardCharsets.UTF_8));
  }

  /** Returns the consumer's lines up to and including {@code last}; fails after a minute. */
  private List<String> linesThrough(String last) throws InterruptedException {
    List<String> seen = new ArrayList<>();
    while (seen.isEmpty() || !seen.get(seen.size() - 1).equals(last)) {
      String line = lines.poll(60, TimeUnit.SECONDS);
      assertThat(line).as("a line after " + seen).isNotNull();
      seen.add(line);
    }
    return seen;
  }

  /** Takes {@code n} messages from the dead-letter queue: "id first-death-reason" each. */
  private List<String> deadLettered(int n) throws Exception {
    BlockingQueue<String> got = new LinkedBlockingQueue<>();
    Channel reader = amqp.createChannel();
    reader.basicConsume(
        deadLetter,
        true,
        (tag, d) ->
            got.add(
                d.getProperties().getMessageId()
                    + " "
                    + d.getProperties().getHeaders().get("x-first-death-reason")),
        tag -> {});
    List<String> taken = new ArrayList<>();
    while (taken.size() < n) {
      String next = got.poll(30, TimeUnit.SECONDS);
      assertThat(next).as("dead-lettered message " + (taken.size() + 1)).isNotNull();
      taken.add(next);
    }
    reader.close();
    assertThat(got).isEmpty();
    return taken;
  }

  /** Ledger entries per message id. */
  private Map<String, Long> ledger() throws SQLException {
    Map<String, Long> entries = new TreeMap<>();
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

  /** An H2 trigger failing the inserts of the message ids in {@link #FAILURES}, as many times. */
  public static final class FailInsert implements Trigger {
    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
      AtomicInteger left = FAILURES.get((String) newRow[0]);
      if (left != null && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new SQLException("injected failure", "58000");
      }
    }
  }
}
