package dev.saferetry.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import dev.saferetry.examples.harness.Options;
import dev.saferetry.jdbc.Inbox;
import dev.saferetry.jdbc.InboxOutcome;
import dev.saferetry.resilience.Sleeper;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Consumes a RabbitMQ queue with manual acknowledgements through the inbox: each message's ledger
 * entry and its receipt commit in one transaction, and the ack is sent only after that commit. A
 * crash between the commit and the ack makes the broker redeliver the message; the inbox recognises
 * its id and the redelivery is acknowledged without a second entry.
 *
 * <p>A message that fails is never left unacknowledged (the broker would not redeliver it while the
 * channel is open, and with one message in flight nothing else would arrive). One that can never
 * succeed (no message id, a body that is not a ledger entry) is rejected and dead-lettered at once.
 * One whose processing failed (the database, say) is handed back after a pause that doubles with
 * each delivery; the queue counts its deliveries and dead-letters it after {@value
 * #DELIVERY_LIMIT}, also when the consumer died each time. Dead-lettered messages wait in {@code
 * <queue>.dead-letter}; moving them back is harmless, the inbox skips those already applied.
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
  static final int DELIVERY_LIMIT = 8;

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Inbox inbox;
  private final com.rabbitmq.client.Connection amqp;
  private final Channel channel;
  private final Sleeper pause;

  QueueConsumer(String amqpUrl, String jdbcUrl, Sleeper pause) throws Exception {
    inbox = Inbox.builder().jdbcUrl(jdbcUrl).createSchema(true).build();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS ledger_entries (message_id VARCHAR(255) NOT NULL,"
              + " account VARCHAR(64) NOT NULL, amount BIGINT NOT NULL)");
    }
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUrl);
    amqp = factory.newConnection("saferetry-queue-consumer");
    channel = amqp.createChannel();
    channel.basicQos(1);
    this.pause = pause;
  }

  /**
   * Declares {@code queue} as a quorum queue (replicated, durable, and it counts each message's
   * deliveries) that dead-letters to {@code <queue>.dead-letter} after {@value #DELIVERY_LIMIT}.
   */
  static void declare(Channel channel, String queue) throws IOException {
    String deadLetter = queue + ".dead-letter";
    channel.queueDeclare(deadLetter, true, false, false, Map.of("x-queue-type", "quorum"));
    Map<String, Object> arguments =
        Map.ofEntries(
            Map.entry("x-queue-type", "quorum"),
            Map.entry("x-delivery-limit", DELIVERY_LIMIT - 1), // redeliveries after the first
            Map.entry("x-dead-letter-exchange", ""),
            Map.entry("x-dead-letter-routing-key", deadLetter));
    channel.queueDeclare(queue, true, false, false, arguments);
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
    channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
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

  /**
   * Hands each delivery that carries a message id to {@code handler}, which settles it; settles the
   * others and those the handler failed on as the class describes.
   */
  void consumeWith(String queue, Consumer<String> log, DeliveryHandler handler) throws IOException {
    channel.basicConsume(
        queue,
        false,
        (tag, delivery) -> {
          long deliveryTag = delivery.getEnvelope().getDeliveryTag();
          String id = delivery.getProperties().getMessageId();
          try {
            if (id == null) {
              // Without an id a redelivery cannot be recognised.
              throw new IllegalArgumentException("no message-id");
            }
            handler.handle(delivery);
          } catch (IllegalArgumentException e) {
            channel.basicReject(deliveryTag, false); // dead-lettered at once
            log.accept("DEAD-LETTERED " + id + ": " + e.getMessage());
          } catch (Exception e) {
            retryLater(delivery, log, e);
          }
        },
        tag -> {});
  }

  private void retryLater(Delivery delivery, Consumer<String> log, Exception e) throws IOException {
    long deliveryTag = delivery.getEnvelope().getDeliveryTag();
    String id = delivery.getProperties().getMessageId();
    Map<String, Object> headers = delivery.getProperties().getHeaders();
    Object count = headers == null ? null : headers.get("x-delivery-count"); // absent at first
    int earlier = count instanceof Number n ? n.intValue() : 0;
    if (earlier + 1 >= DELIVERY_LIMIT) {
      channel.basicReject(deliveryTag, false);
      log.accept(
          "DEAD-LETTERED " + id + " after " + DELIVERY_LIMIT + " deliveries: " + e.getMessage());
      return;
    }
    try {
      pause.sleep(Duration.ofSeconds(1L << Math.min(earlier, 5))); // 1 s, 2 s, ... 32 s
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
    // reject, not nack: RabbitMQ 4.3 and newer count only rejects towards the delivery limit.
    channel.basicReject(deliveryTag, true);
    log.accept("RETRYING " + id + " (delivery " + (earlier + 1) + "): " + e.getMessage());
  }

  @Override
  public void close() throws IOException {
    amqp.close();
  }

  /** Settles one delivery; an exception means it failed (see the class for what then happens). */
  interface DeliveryHandler {
    void handle(Delivery delivery) throws Exception;
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
    declare(consumer.channel, queue);
    System.out.println("consuming " + queue);
    consumer.consume(queue, System.out::println);
  }
}
