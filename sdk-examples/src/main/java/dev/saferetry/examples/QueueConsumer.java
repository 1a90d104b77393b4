package dev.saferetry.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import dev.saferetry.examples.harness.ManualAcks;
import dev.saferetry.examples.harness.Options;
import dev.saferetry.jdbc.Inbox;
import dev.saferetry.jdbc.InboxOutcome;
import dev.saferetry.resilience.Sleeper;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Consumes a RabbitMQ queue with manual acknowledgements through the inbox: each message's ledger
 * entry and its receipt commit in one transaction, and the ack is sent only after that commit. A
 * crash between the commit and the ack makes the broker redeliver the message; the inbox recognises
 * its id and the redelivery is acknowledged without a second entry.
 *
 * <p>A body that is not a ledger entry is dead-lettered at once; a delivery whose processing failed
 * is handed back after a pause and dead-lettered after {@value #DELIVERY_LIMIT} deliveries ({@link
 * ManualAcks} does the broker's part). Moving dead letters back is harmless: the inbox skips those
 * already applied.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.QueueConsumer \
 *     -Dexec.args="--queue ledger-entries [--amqp-url amqp://guest:guest@127.0.0.1:5672] [--jdbc-url URL]"
 * </pre>
 *
 * Messages carry their id in the AMQP {@code message-id} property and a body like {@code
 * {"account":"acct-1","amount":100}}. Prints one line per delivery: what happened and the id.
 */
public final class QueueConsumer implements AutoCloseable {
  /** Deliveries of a message that keeps failing before it is dead-lettered. */
  static final int DELIVERY_LIMIT = ManualAcks.DELIVERY_LIMIT;

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Inbox inbox;
  private final ManualAcks acks;

  QueueConsumer(String amqpUrl, String jdbcUrl, Sleeper pause) throws Exception {
    inbox = Inbox.builder().jdbcUrl(jdbcUrl).createSchema(true).build();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS ledger_entries (message_id VARCHAR(255) NOT NULL,"
              + " account VARCHAR(64) NOT NULL, amount BIGINT NOT NULL)");
    }
    acks = new ManualAcks(amqpUrl, "saferetry-queue-consumer", pause);
  }

  /** Declares {@code queue} and its dead-letter queue; see {@link ManualAcks#declare}. */
  static void declare(Channel channel, String queue) throws IOException {
    ManualAcks.declare(channel, queue);
  }

  /**
   * Applies one delivery through the inbox and returns what happened; does not acknowledge.
   *
   * @throws IllegalArgumentException if the body is not a ledger entry: it never will be
   */
  InboxOutcome process(Delivery delivery) {
    JsonNode entry;
    try {
      entry = JSON.readTree(delivery.getBody());
    } catch (IOException e) {
      throw new IllegalArgumentException("the body is not JSON");
    }
    JsonNode amount = entry == null ? null : entry.path("amount");
    String account = entry == null ? "" : entry.path("account").asText("");
    if (account.isEmpty()
        || account.length() > 64
        || !amount.isIntegralNumber()
        || !amount.canConvertToLong()) {
      throw new IllegalArgumentException("not a ledger entry (account, amount)");
    }
    String id = delivery.getProperties().getMessageId();
    return inbox.receive(
        "ledger",
        id,
        tx -> {
          try (PreparedStatement s =
              tx.connection().prepareStatement("INSERT INTO ledger_entries VALUES (?, ?, ?)")) {
            s.setString(1, id);
            s.setString(2, account);
            s.setLong(3, amount.asLong());
            s.executeUpdate();
          }
        });
  }

  /** Acknowledges a delivery: only ever after {@link #process} returned. */
  void ack(Delivery delivery) throws IOException {
    acks.ack(delivery);
  }

  /**
   * Consumes {@code queue} until closed: process, then ack; reports each delivery to {@code log}.
   */
  void consume(String queue, Consumer<String> log) throws IOException {
    consumeWith(
        queue,
        log,
        delivery -> {
          InboxOutcome outcome = process(delivery);
          ack(delivery);
          log.accept(outcome + " " + delivery.getProperties().getMessageId());
        });
  }

  /** Hands each delivery to {@code handler}; see {@link ManualAcks} for failures. */
  void consumeWith(String queue, Consumer<String> log, ManualAcks.DeliveryHandler handler)
      throws IOException {
    acks.consumeWith(queue, log, handler);
  }

  @Override
  public void close() throws IOException {
    acks.close();
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
    QueueConsumer consumer = new QueueConsumer(amqpUrl, jdbcUrl, Sleeper.system());
    declare(consumer.acks.channel(), queue);
    System.out.println("consuming " + queue);
    consumer.consume(queue, System.out::println);
  }
}
