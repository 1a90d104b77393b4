package dev.saferetry.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import dev.saferetry.examples.harness.Options;
import dev.saferetry.jdbc.Inbox;
import dev.saferetry.jdbc.InboxOutcome;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Map;

/**
 * Consumes a RabbitMQ queue with manual acknowledgements through the inbox: each message's ledger
 * entry and its receipt commit in one transaction, and the ack is sent only after that commit. A
 * crash between the commit and the ack makes the broker redeliver the message; the inbox recognises
 * its id and the redelivery is acknowledged without a second entry.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.QueueConsumer \
 *     -Dexec.args="--queue ledger-entries [--amqp-url amqp://guest:guest@127.0.0.1:5672] [--jdbc-url URL]"
 * </pre>
 *
 * Messages carry their id in the AMQP {@code message-id} property and a body like {@code
 * {"account":"acct-1","amount":100}}. Prints one line per message: its outcome and id.
 */
public final class QueueConsumer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Inbox inbox;
  private final Channel channel;

  QueueConsumer(String amqpUrl, String queue, String jdbcUrl) throws Exception {
    inbox = Inbox.builder().jdbcUrl(jdbcUrl).createSchema(true).build();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS ledger_entries (message_id VARCHAR(255) NOT NULL,"
              + " account VARCHAR(64) NOT NULL, amount BIGINT NOT NULL)");
    }
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUrl);
    channel = factory.newConnection("saferetry-queue-consumer").createChannel();
    channel.basicQos(1);
    channel.queueDeclare(queue, false, false, false, null);
  }

  /** Applies one delivery through the inbox and returns what happened; does not acknowledge. */
  InboxOutcome process(Delivery delivery) throws IOException {
    String id = delivery.getProperties().getMessageId();
    JsonNode entry = JSON.readTree(delivery.getBody());
    return inbox.receive(
        "ledger",
        id,
        tx -> {
          try (PreparedStatement s =
              tx.connection().prepareStatement("INSERT INTO ledger_entries VALUES (?, ?, ?)")) {
            s.setString(1, id);
            s.setString(2, entry.path("account").asText());
            s.setLong(3, entry.path("amount").asLong());
            s.executeUpdate();
          }
        });
  }

  /** Acknowledges a delivery: only ever after {@link #process} returned. */
  void ack(Delivery delivery) throws IOException {
    channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
  }

  /** Consumes {@code queue} until the process ends: process, then ack. */
  void consume(String queue) throws IOException {
    consumeWith(
        queue,
        delivery -> {
          InboxOutcome outcome = process(delivery); // throws: no ack, the broker redelivers
          ack(delivery);
          System.out.println(outcome + " " + delivery.getProperties().getMessageId());
        });
  }

  /** Hands each delivery that carries a message id to {@code handler}; refuses the others. */
  void consumeWith(String queue, DeliveryHandler handler) throws IOException {
    channel.basicConsume(
        queue,
        false,
        (tag, delivery) -> {
          if (delivery.getProperties().getMessageId() == null) {
            // Without an id a redelivery cannot be recognised: refuse it (dead-letter it).
            channel.basicReject(delivery.getEnvelope().getDeliveryTag(), false);
          } else {
            handler.handle(delivery);
          }
        },
        tag -> {});
  }

  /** What to do with one delivery. */
  interface DeliveryHandler {
    void handle(Delivery delivery) throws IOException;
  }

  /** {@code --queue NAME [--amqp-url URL] [--jdbc-url URL]}; embedded H2 file by default. */
  public static void main(String[] args) throws Exception {
    Map<String, String> o = Options.parse(args);
    String amqpUrl =
        o.getOrDefault(
            "amqp-url",
            System.getenv()
                .getOrDefault("SAFERETRY_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672"));
    String queue = o.getOrDefault("queue", "ledger-entries");
    String jdbcUrl = o.getOrDefault("jdbc-url", "jdbc:h2:./queue-consumer;WRITE_DELAY=0");
    System.out.println("consuming " + queue);
    new QueueConsumer(amqpUrl, queue, jdbcUrl).consume(queue);
  }
}
