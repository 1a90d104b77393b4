package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The generated Stripe client, compiled in this JVM with a small driver that uses it as an
 * application would, sends its write to MockWebServer: the key header on every attempt, the same
 * across a retry, and an answer with an unknown status and an unknown field read and written back
 * whole.
 */
class DrivenInProcessTest {
  private static final String ANSWER =
      "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":500,\"status\":\"requires_review\","
          + "\"created\":1700000000,\"radar_options\":{\"session\":\"rs_1\"}}";

  @Test
  @SuppressWarnings("unchecked")
  void theGeneratedClientRetriesUnderOneKeyAndKeepsWhatItDoesNotKnow() throws Exception {
    GeneratedSources sources =
        Generator.generate(
            Specs.config("stripe-charges.yaml", "com.example.stripe").preset("stripe").build());
    String driver;
    try (InputStream in = getClass().getResourceAsStream("/drivers/StripeDriver.java.txt")) {
      driver = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try (Compiled c =
            Compiled.compile(
                sources,
                Compiled.workDir("stripe-driven"),
                Map.of("com/example/stripe/StripeDriver.java", driver));
        MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(new MockResponse.Builder().code(503).build());
      server.enqueue(
          new MockResponse.Builder()
              .code(200)
              .addHeader("Content-Type", "application/json")
              .body(ANSWER)
              .build());
      Function<String, List<String>> run =
          (Function<String, List<String>>)
              c.type("com.example.stripe.StripeDriver").getConstructor().newInstance();
      List<String> out = run.apply(server.url("/").toString());

      RecordedRequest first = server.takeRequest();
      RecordedRequest second = server.takeRequest();
      assertThat(first.getHeaders().get("Idempotency-Key"))
          .isEqualTo(out.get(0))
          .isEqualTo(second.getHeaders().get("Idempotency-Key"));
      assertThat(first.getBody().utf8()).isEqualTo("amount=500&currency=usd");
      assertThat(out.get(1)).isEqualTo("requires_review");
      assertThat(out.get(2)).isEqualTo("false");
      ObjectMapper m = new ObjectMapper();
      assertThat(m.readTree(out.get(3))).isEqualTo(m.readTree(ANSWER));
    }
  }
}
