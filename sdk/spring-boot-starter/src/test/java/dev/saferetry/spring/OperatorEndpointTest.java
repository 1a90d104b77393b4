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

  /** Two rejected charges, held once for the class: one to read and refuse, one to act on. */
  private static String read;

  private static String acted;

  @BeforeEach
  void rejectedChargesAreHeld() {
    if (read != null) {
      return;
    }
    String r = "reject-read-" + System.nanoTime();
    String a = "reject-act-" + System.nanoTime();
    orders.place(r, 700);
    orders.place(a, 800);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                ((Number) row(r).get("RELAY_STATE")).intValue() == 2
                    && ((Number) row(a).get("RELAY_STATE")).intValue() == 2);
    read = r;
    acted = a;
  }

  @Test
  void readsListHeldIntentsWithoutTheirRequests() {
    HttpResponse<String> r = Http.get(port, "/actuator/saferetryoutbox?state=held");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .contains("\"intentId\":\"order-" + read + "\"")
        .contains("\"holdReason\":\"rejected\"")
        .contains("\"actionsEnabled\":true")
        .doesNotContain("\"amount\"");
  }

  @Test
  void anAnonymousActionChangesNothing() {
    Map<String, Object> before = row(read);
    HttpResponse<String> r =
        Http.postJson(port, "/actuator/saferetryoutbox", action(read, "abandon"), null, null);
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("authenticated principal");
    assertThat(row(read)).isEqualTo(before);
  }

  @Test
  void anAuthenticatedActionIsRecordedUnderThePrincipalsName() {
    HttpResponse<String> r =
        Http.postJson(
            port,
            "/actuator/saferetryoutbox",
            action(acted, "abandon"),
            "alice",
            CheckoutTestApp.OPERATOR_PASSWORD);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"state\":\"abandoned\"");
    assertThat(
            jdbc.queryForObject(
                "SELECT actor FROM saferetry_intents_audit WHERE intent_id = ?",
                String.class,
                "order-" + acted))
        .isEqualTo("alice");
  }
}
