package dev.saferetry.examples;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import dev.saferetry.examples.support.LedgerEntry;
import dev.saferetry.examples.support.ManualAcks;
import dev.saferetry.examples.support.Options;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.resilience.Sleeper;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Consumes a RabbitMQ queue through the inbox: each message's ledger entry and its receipt commit
 * in one transaction, and the ack is sent only after that commit. A crash between the two makes the
 * broker redeliver; the inbox knows the id, and the redelivery is acked without a second entry. A
 * body that is not a ledger entry is dead-lettered at once, a failing one after {@value
 * #DELIVERY_LIMIT} deliveries.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.QueueConsumer \
 *     -Dexec.args="--queue ledger-entries [--amqp-url amqp://guest:guest@127.0.0.1:5672] [--jdbc-url URL]"
 * </pre>
 */
public final class QueueConsumer implements AutoCloseable {
  /** Deliveries of a message that keeps failing before it is dead-lettered. */
  static final int DELIVERY_LIMIT = ManualAcks.DELIVERY_LIMIT;

  private final Inbox inbox;
  final ManualAcks acks;

  QueueConsumer(String amqpUrl, String jdbcUrl, Sleeper pause) throws Exception {
    inbox = Inbox.builder().jdbcUrl(jdbcUrl).createSchema(true).build();
    LedgerEntry.createTable(jdbcUrl);
    acks = new ManualAcks(amqpUrl, "saferetry-queue-consumer", pause);
  }

  /** Applies one delivery (its entry and its receipt in one transaction); does not ack it. */
  InboxResult process(Delivery delivery) {
    LedgerEntry entry = LedgerEntry.parse(delivery.getBody()); // never one: dead-lettered
    String id = delivery.getProperties().getMessageId(); // the deduplication key
    return inbox.receive("ledger", id, tx -> entry.insert(tx.connection(), id));
  }

  /** Consumes {@code queue} until closed: process, then ack; reports each delivery to log. */
  void consume(String queue, Consumer<String> log) throws IOException {
    acks.consumeWith( // ManualAcks: what becomes of a delivery that fails
        queue,
        log,
        delivery -> {
          InboxResult outcome = process(delivery);
          acks.ack(delivery); // only after the commit: a crash before it means a redelivery
          log.accept(outcome + " " + delivery.getProperties().getMessageId());
        });
  }

  static void declare(Channel channel, String queue) throws IOException {
    ManualAcks.declare(channel, queue); // the queue and its dead-letter queue
  }

  @Override
  public void close() throws IOException {
    acks.close();
  }

  /** {@code --queue NAME [--amqp-url URL] [--jdbc-url URL]}; embedded H2 file by default. */
  public static void main(String[] args) throws Exception {
    Map<String, String> o = Options.parse(args);
    String broker = System.getenv().getOrDefault("SAFERETRY_AMQP_URL", "amqp://127.0.0.1:5672");
    String jdbcUrl = o.getOrDefault("jdbc-url", "jdbc:h2:./target/queue-consumer;WRITE_DELAY=0");
    String queue = o.getOrDefault("queue", "ledger-entries");
    QueueConsumer consumer =
        new QueueConsumer(o.getOrDefault("amqp-url", broker), jdbcUrl, Sleeper.system());
    declare(consumer.acks.channel(), queue);
    System.out.println("consuming " + queue);
    consumer.consume(queue, System.out::println);
  }
}
