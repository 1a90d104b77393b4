package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The failure examples run exactly as the README's table says (no argument) show what they claim:
 * they arm their own faults on a fake API of their own, so nothing else has to be running.
 */
class FailureExamplesAsDocumentedTest {
  interface Main {
    void run(String[] args) throws Exception;
  }

  private static String output(Main main) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      main.run(new String[0]);
    } finally {
      System.setOut(original);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void lostResponseLosesTheFirstAnswerAndTheRetryIsReplayedAsOneCharge() throws Exception {
    String out = output(LostResponse::main);

    assertThat(out).contains("after 2 attempt(s)", "replayed by the server: true");
    assertThat(out).contains("requests: 2, charges made: 1");
  }

  @Test
  @Timeout(120)
  void crashAndRecoverKillsItsFirstRunMidRequestAndTheSecondRedrivesTheSameKey() throws Exception {
    String out = output(CrashAndRecover::main);

    String key = out.substring(out.indexOf(", key ") + 6, out.indexOf('\n')).strip();
    assertThat(out).startsWith("pending order-1004/charge, key ");
    assertThat(out).contains("recovered order-1004/charge", "key " + key + ", replayed true");
    assertThat(out).contains("pending left: 0", "the fake API made 1 charge(s)");
  }
}
