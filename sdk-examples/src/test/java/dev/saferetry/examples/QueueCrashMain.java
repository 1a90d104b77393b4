package dev.saferetry.examples;

import dev.saferetry.examples.support.Options;
import dev.saferetry.resilience.Sleeper;
import java.util.Map;

/**
 * The queue consumer with a crash point: it processes messages like {@link QueueConsumer}, but for
 * the message named by {@code --crash-on} it commits, prints {@code COMMITTED <id> <outcome>} and
 * never acknowledges, so the test can SIGKILL it between the commit and the ack.
 */
public final class QueueCrashMain {
  private QueueCrashMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = Options.parse(args);
    String queue = o.get("queue");
    String crashOn = o.get("crash-on");
    QueueConsumer consumer =
        new QueueConsumer(o.get("amqp-url"), o.get("jdbc-url"), Sleeper.system());
    consumer.acks.consumeWith(
        queue,
        System.out::println,
        delivery -> {
          String id = delivery.getProperties().getMessageId();
          var outcome = consumer.process(delivery);
          if (id.equals(crashOn)) {
            System.out.println("COMMITTED " + id + " " + outcome);
            return; // no ack: the test kills this process now
          }
          consumer.acks.ack(delivery);
          System.out.println(outcome + " " + id);
        });
  }
}
