package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import dev.saferetry.testing.ChildJvm;
import dev.saferetry.testing.FakeTime;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  /** Inserts of these message ids that fail before one succeeds. */
  static final Map<String, AtomicInteger> FAILURES = new ConcurrentHashMap<>();

  final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  final FakeTime time = new FakeTime();
  final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  TestQueue queue;
  String jdbcUrl;

  @BeforeEach
  void connect(@TempDir Path dir) throws Exception {
    queue = TestQueue.declare("saferetry-poison-test-");
    jdbcUrl = "jdbc:h2:" + dir.resolve("ledger") + ";WRITE_DELAY=0";
  }

  @AfterEach
  void cleanUp() throws Exception {
    FAILURES.keySet().removeIf(id -> id.endsWith(run));
    if (queue != null) {
      queue.close();
    }
  }

  @Test
  void messagesThatCanNeverSucceedAreDeadLetteredAtOnceAndTheOthersApplied() throws Exception {
    queue.publish("m-1", "{\"account\":\"acct-1\",\"amount\":100}");
    queue.publish("m-2", "not json {");
    queue.publish("m-3", "{\"account\":\"acct-1\"}");
    queue.publish(null, "{\"account\":\"acct-1\",\"amount\":400}");
    queue.publish("m-5", "{\"account\":\"acct-1\",\"amount\":500}");
    List<String> seen = new ArrayList<>();
    String[] args = {
      "--amqp-url", TestQueue.AMQP_URL, "--queue", queue.name, "--jdbc-url", jdbcUrl
    };

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
    assertThat(queue.deadLettered(3))
        .containsExactly("m-2 rejected", "m-3 rejected", "null rejected");
    assertThat(TestQueue.ledger(jdbcUrl))
        .containsExactlyInAnyOrderEntriesOf(Map.of("m-1", 1L, "m-5", 1L));
    assertThat(queue.ready()).isZero();
  }

  @Test
  void aFailedMessageIsRetriedAfterGrowingPausesAndAppliedOnce() throws Exception {
    String flaky = "flaky-" + run;
    queue.publish(flaky, "{\"account\":\"acct-1\",\"amount\":100}");
    queue.publish("m-2", "{\"account\":\"acct-1\",\"amount\":200}");

    List<String> seen;
    try (QueueConsumer consumer = failing(flaky, 2)) {
      consumer.consume(queue.name, lines::add);
      seen = linesThrough("APPLIED m-2");
    }

    assertThat(seen).hasSize(4);
    assertThat(seen.get(0)).startsWith("RETRYING " + flaky + " (delivery 1): ");
    assertThat(seen.get(1)).startsWith("RETRYING " + flaky + " (delivery 2): ");
    assertThat(seen.subList(2, 4)).containsExactly("APPLIED " + flaky, "APPLIED m-2");
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(TestQueue.ledger(jdbcUrl))
        .containsExactlyInAnyOrderEntriesOf(Map.of(flaky, 1L, "m-2", 1L));
    assertThat(queue.channel.messageCount(queue.deadLetter)).isZero();
  }

  @Test
  void aMessageThatKeepsFailingIsDeadLetteredAfterTheDeliveryLimit() throws Exception {
    String broken = "broken-" + run;
    queue.publish(broken, "{\"account\":\"acct-1\",\"amount\":100}");
    queue.publish("m-2", "{\"account\":\"acct-1\",\"amount\":200}");

    List<String> seen;
    try (QueueConsumer consumer = failing(broken, Integer.MAX_VALUE)) {
      consumer.consume(queue.name, lines::add);
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
    assertThat(queue.deadLettered(1)).containsExactly(broken + " rejected");
    assertThat(TestQueue.ledger(jdbcUrl)).containsExactlyInAnyOrderEntriesOf(Map.of("m-2", 1L));
  }

  @Test
  void theQueueDeadLettersAMessageWhoseConsumerDiesAtEveryDelivery() throws Exception {
    queue.publish("m-1", "{\"account\":\"acct-1\",\"amount\":100}");

    for (int delivery = 1; delivery <= QueueConsumer.DELIVERY_LIMIT; delivery++) {
      BlockingQueue<Delivery> got = new LinkedBlockingQueue<>();
      Channel dying = queue.amqp.createChannel();
      dying.basicConsume(queue.name, false, (tag, d) -> got.add(d), tag -> {});
      Delivery d = got.poll(30, TimeUnit.SECONDS);
      assertThat(d).as("delivery " + delivery).isNotNull();
      Map<String, Object> headers = d.getProperties().getHeaders();
      assertThat(headers == null ? null : headers.get("x-delivery-count"))
          .as("deliveries counted before delivery " + delivery)
          .isEqualTo(delivery == 1 ? null : (long) delivery - 1);
      dying.close(); // unacknowledged: the broker takes it back and counts the delivery
    }

    assertThat(queue.deadLettered(1)).containsExactly("m-1 delivery_limit");
    assertThat(queue.ready()).isZero();
  }

  /** A consumer with fake time whose ledger insert for {@code messageId} fails {@code times}. */
  private QueueConsumer failing(String messageId, int times) throws Exception {
    FAILURES.put(messageId, new AtomicInteger(times));
    QueueConsumer consumer = new QueueConsumer(TestQueue.AMQP_URL, jdbcUrl, time);
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TRIGGER FAIL_LEDGER BEFORE INSERT ON ledger_entries FOR EACH ROW CALL '"
              + FailInsert.class.getName()
              + "'");
    }
    return consumer;
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
