package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the operator example: the first charge of the order is parked after two 503s while the
 * second waits behind it; requeued, it is sent again and the second follows it, never before.
 */
class OutboxOperatorTest {
  @Test
  @Timeout(60)
  void theParkedChargeIsRequeuedAndBothAreSentInOrder() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      OutboxOperator.main(new String[0]);
    } finally {
      System.setOut(out);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    out.print(printed);
    assertThat(printed)
        .contains("order-42/charge: parked TOO_MANY_ATTEMPTS, holds key true")
        .contains("order-42/shipping: queued")
        .contains("requeued: requeued by alice@ops: provider is back")
        .contains(
            "provider received, in order: [order-42/charge 503, order-42/charge 503,"
                + " order-42/charge 201, order-42/shipping 201]");
  }
}
