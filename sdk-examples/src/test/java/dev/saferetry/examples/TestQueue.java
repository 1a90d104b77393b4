package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A uniquely named queue on the test RabbitMQ ({@code SAFERETRY_AMQP_URL}), declared as {@link
 * QueueConsumer} declares it, with its dead-letter queue; both are deleted on close. Skips the
 * calling test when RabbitMQ does not answer.
 */
final class TestQueue implements AutoCloseable {
  static final String AMQP_URL =
      System.getenv().getOrDefault("SAFERETRY_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672");

  final String name;
  final String deadLetter;
  final Connection amqp;
  final Channel channel;

  private TestQueue(String name, Connection amqp) throws IOException {
    this.name = name;
    this.deadLetter = name + ".dead-letter";
    this.amqp = amqp;
    this.channel = amqp.createChannel();
    channel.confirmSelect();
    QueueConsumer.declare(channel, name);
  }

  /** Declares {@code <prefix><random>}; skips the test when RabbitMQ does not answer. */
  static TestQueue declare(String prefix) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(AMQP_URL);
    factory.setConnectionTimeout(3000);
    Connection amqp = null;
    try {
      amqp = factory.newConnection("saferetry-examples-test");
    } catch (Exception e) {
      assumeTrue(false, "RabbitMQ does not answer (" + e + "); set SAFERETRY_AMQP_URL to run this");
    }
    String random = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return new TestQueue(prefix + random, amqp);
  }

  /**
   * Publishes {@code body} with message id {@code id} (null: none) and waits until the broker
   * confirms that the queue holds it.
   */
  void publish(String id, String body) throws Exception {
    AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().messageId(id).build();
    channel.basicPublish("", name, props, body.getBytes(StandardCharsets.UTF_8));
    channel.waitForConfirmsOrDie(30_000);
  }

  /** Messages ready in the queue. */
  long ready() throws IOException {
    return channel.messageCount(name);
  }

  /** Takes {@code n} messages from the dead-letter queue as "id first-death-reason", in order. */
  List<String> deadLettered(int n) throws Exception {
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
      assertThat(next).as("dead-lettered message " + (taken.size() + 1) + " of " + n).isNotNull();
      taken.add(next);
    }
    reader.close();
    return taken;
  }

  /** The ledger entries {@link QueueConsumer} wrote in {@code jdbcUrl}, per message id. */
  static Map<String, Long> ledger(String jdbcUrl) throws SQLException {
    Map<String, Long> entries = new TreeMap<>();
    try (java.sql.Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT message_id, COUNT(*) FROM ledger_entries GROUP BY message_id")) {
      while (rs.next()) {
        entries.put(rs.getString(1), rs.getLong(2));
      }
    }
    return entries;
  }

  @Override
  public void close() throws IOException {
    Channel cleanup = amqp.createChannel();
    cleanup.queueDelete(name);
    cleanup.queueDelete(deadLetter);
    amqp.close();
  }
}
