package dev.saferetry.examples.checkout;

import static dev.saferetry.examples.checkout.CheckoutTour.json;
import static dev.saferetry.examples.checkout.CheckoutTour.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.WithFakeProvider;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The same checkout on PostgreSQL, changed by one property, {@code spring.datasource.url}: here a
 * fresh schema of {@code SAFERETRY_PG_URL} (default the local server), dropped afterwards. Skipped
 * when PostgreSQL does not answer.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "saferetry.webhooks.payments.secrets=" + CheckoutTour.SECRET)
@WithFakeProvider(client = "payments")
@DirtiesContext
class CheckoutOnPostgresTest {
  static final String SERVER =
      System.getenv()
          .getOrDefault("SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
  static final String SCHEMA = "checkout_" + UUID.randomUUID().toString().substring(0, 8);

  @Autowired FakeProvider provider;
  @Autowired JdbcTemplate jdbc;
  @Autowired Environment environment;

  @BeforeAll
  static void createSchema() {
    DriverManager.setLoginTimeout(3);
    try (Connection c = DriverManager.getConnection(SERVER);
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + SCHEMA);
    } catch (SQLException e) {
      assumeTrue(false, "PostgreSQL does not answer at SAFERETRY_PG_URL (" + e + "); skipped");
    }
  }

  @DynamicPropertySource
  static void postgres(DynamicPropertyRegistry registry) {
    registry.add(
        "spring.datasource.url",
        () -> SERVER + (SERVER.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA);
  }

  /** Drops the schema when the context closes, after its relay stopped. */
  @TestConfiguration
  static class DropSchema {
    @Bean
    AutoCloseable dropSchemaOnClose() {
      return () -> {
        try (Connection c = DriverManager.getConnection(SERVER);
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
        }
      };
    }
  }

  @Test
  void anOrderIsChargedOnceThroughALostAnswerOnPostgresql() throws Exception {
    assertThat(jdbc.queryForObject("SELECT current_schema()", String.class)).isEqualTo(SCHEMA);
    provider.arm(Fault.loseAnswer().on("POST /v1/charges"));
    String base = "http://127.0.0.1:" + environment.getProperty("local.server.port");
    String order = "order-" + UUID.randomUUID().toString().substring(0, 8);

    assertThat(post(base + "/orders", json(order), null).statusCode()).isEqualTo(201);

    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                jdbc.queryForObject(
                        "SELECT COUNT(*) FROM saferetry_intents WHERE intent_id = ? AND state = 1",
                        Integer.class,
                        "order-" + order + "/charge")
                    == 1);
    assertThat(provider.received()).hasSize(2);
    assertThat(provider.effects()).hasSize(1);
    provider.assertOneKeyPerIntent();
  }
}
