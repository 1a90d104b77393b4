package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.saferetry.spring.app.CheckoutTestApp;
import dev.saferetry.spring.app.Orders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The operator endpoint: reads for anyone the application lets through, actions only for an
 * authenticated principal, who is recorded as the actor. The test application's security lets
 * anonymous requests reach every URL, so what refuses them here is the endpoint itself.
 */
class OperatorEndpointTest extends StarterContextTest {
  @LocalServerPort int port;
  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;

  private Map<String, Object> row(String orderId) {
    return jdbc.queryForMap(
        "SELECT state, relay_state, hold_reason, relay_note, lease_token FROM saferetry_intents"
            + " WHERE intent_id = ?",
        "order-" + orderId);
  }

  private String action(String orderId, String action) {
    return "{\"action\":\""
        + action
        + "\",\"tenant\":\"payments\",\"operation\":\""
        + Orders.CHARGE.name()
        + "\",\"intentId\":\"order-"
        + orderId
        + "\",\"reason\":\"customer cancelled\"}";
  }

  private String held;

  @BeforeEach
  void aRejectedChargeIsHeld() {
    held = "reject-" + System.nanoTime();
    orders.place(held, 700);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> ((Number) row(held).get("RELAY_STATE")).intValue() == 2);
  }

  @Test
  void readsListHeldIntentsWithoutTheirRequests() {
    HttpResponse<String> r = Http.get(port, "/actuator/saferetry-outbox?state=held");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .contains("\"intentId\":\"order-" + held + "\"")
        .contains("\"holdReason\":\"rejected\"")
        .contains("\"actionsEnabled\":true")
        .doesNotContain("\"amount\"");
  }

  @Test
  void anAnonymousActionChangesNothing() {
    Map<String, Object> before = row(held);
    HttpResponse<String> r =
        Http.postJson(port, "/actuator/saferetry-outbox", action(held, "abandon"), null, null);
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(row(held)).isEqualTo(before);
  }

  @Test
  void anAuthenticatedActionIsRecordedUnderThePrincipalsName() {
    HttpResponse<String> r =
        Http.postJson(
            port,
            "/actuator/saferetry-outbox",
            action(held, "abandon"),
            "alice",
            CheckoutTestApp.OPERATOR_PASSWORD);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"state\":\"abandoned\"");
    assertThat(
            jdbc.queryForObject(
                "SELECT actor FROM saferetry_intents_audit WHERE intent_id = ?",
                String.class,
                "order-" + held))
        .isEqualTo("alice");
  }
}
