package dev.saferetry.examples.checkout;

import static dev.saferetry.examples.checkout.CheckoutTour.get;
import static dev.saferetry.examples.checkout.CheckoutTour.json;
import static dev.saferetry.examples.checkout.CheckoutTour.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.Received;
import dev.saferetry.testing.provider.WithFakeProvider;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The checkout's real application context (embedded H2, web server on a free port, the starter's
 * relay, Actuator and Spring Security) with its payments client pointed at a fake provider.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "saferetry.webhooks.payments.secrets=" + CheckoutTour.SECRET,
      "spring.security.user.password=" + CheckoutApplicationTest.OPERATOR_PASSWORD
    })
@WithFakeProvider(client = "payments")
class CheckoutApplicationTest {
  static final String OPERATOR_PASSWORD = "test-operator-password";

  @Autowired FakeProvider provider;
  @Autowired JdbcTemplate jdbc;
  @Autowired Environment environment;
  String base;

  @BeforeEach
  void base() {
    base = "http://127.0.0.1:" + environment.getProperty("local.server.port");
  }

  /** Places an order through the API and waits until the relay's charge has an answer. */
  private String placeAndWaitForTheCharge() throws Exception {
    String order = "order-" + UUID.randomUUID().toString().substring(0, 8);
    assertThat(post(base + "/orders", json(order), null).statusCode()).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> intentState(order) == 1); // the relay recorded the charge's answer
    return order;
  }

  private int intentState(String order) {
    return jdbc
        .queryForList(
            "SELECT state FROM saferetry_intents WHERE intent_id = ?",
            Integer.class,
            "order-" + order + "/charge")
        .stream()
        .findFirst()
        .orElse(-1);
  }

  @Test
  void anOrderIsChargedOnceThroughALostAnswer() throws Exception {
    provider.arm(Fault.loseAnswer().on("POST /v1/charges"));

    String order = placeAndWaitForTheCharge();
    String key =
        jdbc.queryForObject(
            "SELECT idempotency_key FROM saferetry_intents WHERE intent_id = ?",
            String.class,
            "order-" + order + "/charge");

    assertThat(provider.received()).extracting(Received::key).containsOnly(key);
    assertThat(provider.received())
        .hasSize(2)
        .extracting(Received::replayed)
        .containsExactly(false, true);
    assertThat(provider.effects()).hasSize(1);
    provider.assertOneKeyPerIntent();
  }

  @Test
  void theProvidersWebhookIsVerifiedAndAppliedOnce() throws Exception {
    String order = placeAndWaitForTheCharge();
    String charge = provider.effects().get(0).objectId();
    String event =
        "{\"type\":\"charge.succeeded\",\"order\":\"" + order + "\",\"charge\":\"" + charge + "\"}";
    String forged = event.replace(charge, "ch_forged");

    HttpResponse<String> unsigned = post(base + "/webhooks/payments", forged, null);
    assertThat(unsigned.statusCode()).isEqualTo(400);
    assertThat(get(base + "/orders/" + order, null).body()).isEqualTo("PLACED");

    assertThat(post(base + "/webhooks/payments", event, "evt_" + order).body())
        .isEqualTo("APPLIED");
    assertThat(post(base + "/webhooks/payments", event, "evt_" + order).body())
        .isEqualTo("DUPLICATE");
    assertThat(get(base + "/orders/" + order, null).body()).isEqualTo("PAID");
    assertThat(
            jdbc.queryForObject("SELECT charge_id FROM orders WHERE id = ?", String.class, order))
        .isEqualTo(charge);
  }

  @Test
  void healthShowsSafeRetrysClientOutboxAndRelay() throws Exception {
    HttpResponse<String> health = get(base + "/actuator/health", null);

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(CheckoutTour.component(health.body()))
        .startsWith("\"saferetry\":")
        .contains("\"payments\":{\"breaker\":\"CLOSED\"")
        .contains("\"outbox\":")
        .contains("\"relays\":")
        .contains("\"status\":\"UP\"");
  }

  @Test
  void safeRetrysMetersAreInActuatorMetrics() throws Exception {
    placeAndWaitForTheCharge();

    assertThat(CheckoutTour.saferetry(get(base + "/actuator/metrics", null).body()))
        .contains("saferetry.client.calls", "saferetry.relay.sends", "saferetry.outbox.intents");
    HttpResponse<String> sends = get(base + "/actuator/metrics/saferetry.relay.sends", null);
    assertThat(sends.statusCode()).isEqualTo(200);
    assertThat(sends.body()).contains("\"statistic\":\"COUNT\"").doesNotContain("\"value\":0.0");
  }

  @Test
  void anAnonymousRequestToTheOperatorEndpointIsRefusedAndChangesNothing() throws Exception {
    String endpoint = base + "/actuator/saferetryoutbox";
    String action =
        "{\"action\":\"abandon\",\"tenant\":\"default\",\"operation\":\"x\","
            + "\"intentId\":\"y\",\"reason\":\"z\"}";
    assertThat(get(endpoint, null).statusCode()).isEqualTo(401);
    assertThat(get(endpoint, "operator:wrong").statusCode()).isEqualTo(401);
    assertThat(post(endpoint, action, null).statusCode()).isEqualTo(401);

    HttpResponse<String> read = get(endpoint, "operator:" + OPERATOR_PASSWORD);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).contains("\"actionsEnabled\":false").contains("\"intents\":");
  }
}
