package dev.saferetry.examples.checkout;

import static dev.saferetry.examples.checkout.CheckoutTour.json;
import static dev.saferetry.examples.checkout.CheckoutTour.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.Received;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An order placed just before the checkout stops is charged once after it starts again: the key was
 * committed with the order, so the relay of the next process sends it with that key, through a lost
 * answer too. Two real application contexts, one after the other, on one H2 file.
 */
class CheckoutRestartTest {
  @TempDir Path dir;

  private ConfigurableApplicationContext start(FakeProvider provider, boolean relays) {
    // As command-line arguments: they outrank application.yml, as a deployment's settings would.
    return new SpringApplicationBuilder(CheckoutApplication.class)
        .run(
            "--spring.datasource.url=jdbc:h2:file:" + dir.resolve("checkout"),
            "--server.port=0",
            "--saferetry.clients.payments.base-url=" + provider.baseUrl(),
            "--saferetry.outbox.relay.enabled=" + relays,
            "--saferetry.webhooks.payments.secrets=" + CheckoutTour.SECRET);
  }

  private static String key(ConfigurableApplicationContext app, String order) {
    return app.getBean(JdbcTemplate.class)
        .queryForObject(
            "SELECT idempotency_key FROM saferetry_intents WHERE intent_id = ?",
            String.class,
            "order-" + order + "/charge");
  }

  @Test
  void anOrderPlacedBeforeARestartIsChargedOnceAfterItWithItsKey() throws Exception {
    try (FakeProvider provider = FakeProvider.start()) {
      String recorded;
      // The first process takes the order and stops before any relay sent its charge.
      try (ConfigurableApplicationContext first = start(provider, false)) {
        String base = "http://127.0.0.1:" + first.getEnvironment().getProperty("local.server.port");
        assertThat(post(base + "/orders", json("order-r1"), null).statusCode()).isEqualTo(201);
        recorded = key(first, "order-r1");
      }
      assertThat(provider.received()).isEmpty();
      assertThat(dir.resolve("checkout.mv.db")).exists();

      provider.arm(Fault.loseAnswer().on("POST /v1/charges"));
      try (ConfigurableApplicationContext second = start(provider, true)) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> provider.received().stream().anyMatch(Received::replayed));
        assertThat(key(second, "order-r1")).isEqualTo(recorded);
      }
      assertThat(provider.received()).extracting(Received::key).containsOnly(recorded);
      assertThat(provider.effects()).hasSize(1);
    }
  }
}
