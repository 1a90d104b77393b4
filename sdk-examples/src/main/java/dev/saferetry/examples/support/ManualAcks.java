package dev.saferetry.examples.support;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import dev.saferetry.resilience.Sleeper;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The broker side of the queue consumer example: one RabbitMQ channel with manual acknowledgements,
 * one message in flight, and what happens to a message that fails.
 *
 * <p>A message that fails is never left unacknowledged (the broker would not redeliver it while the
 * channel is open, and with one message in flight nothing else would arrive). One that can never
 * succeed (no message id, or an {@link IllegalArgumentException} from the handler) is rejected and
 * dead-lettered at once. One whose processing failed otherwise (the database, say) is handed back
 * after a pause that doubles with each delivery; the queue counts its deliveries and dead-letters
 * it after {@value #DELIVERY_LIMIT}, also when the consumer died each time. Dead-lettered messages
 * wait in {@code <queue>.dead-letter}.
 */
public final class ManualAcks implements AutoCloseable {
  /** Deliveries of a message that keeps failing before it is dead-lettered. */
  public static final int DELIVERY_LIMIT = 8;

  private final Connection amqp;
  private final Channel channel;
  private final Sleeper pause;

  /** Connects to {@code amqpUrl} and opens a channel that takes one message at a time. */
  public ManualAcks(String amqpUrl, String connectionName, Sleeper pause) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUrl);
    amqp = factory.newConnection(connectionName);
    channel = amqp.createChannel();
    channel.basicQos(1);
    this.pause = pause;
  }

  /** The channel. */
  public Channel channel() {
    return channel;
  }

  /**
   * Declares {@code queue} as a quorum queue (replicated, durable, and it counts each message's
   * deliveries) that dead-letters to {@code <queue>.dead-letter} after {@value #DELIVERY_LIMIT}.
   */
  public static void declare(Channel channel, String queue) throws IOException {
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

  /** Acknowledges a delivery. */
  public void ack(Delivery delivery) throws IOException {
    channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
  }

  /**
   * Hands each delivery that carries a message id to {@code handler}, which settles it; settles the
   * others and those the handler failed on as the class describes.
   */
  public void consumeWith(String queue, Consumer<String> log, DeliveryHandler handler)
      throws IOException {
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
  public interface DeliveryHandler {
    /** Settles {@code delivery}. */
    void handle(Delivery delivery) throws Exception;
  }
}
