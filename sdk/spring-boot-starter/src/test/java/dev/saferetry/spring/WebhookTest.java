package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** A controller verifies a webhook delivery and applies it once, in one transaction. */
class WebhookTest extends StarterContextTest {
  @LocalServerPort int port;
  @Autowired JdbcTemplate jdbc;

  private static String signature(String payload, String secret) throws Exception {
    long t = System.currentTimeMillis() / 1000;
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] sig = mac.doFinal((t + "." + payload).getBytes(StandardCharsets.UTF_8));
    return "t=" + t + ",v1=" + HexFormat.of().formatHex(sig);
  }

  private HttpResponse<String> deliver(String payload, String secret) throws Exception {
    return Http.post(
        port,
        "/webhooks/stripe",
        "application/json",
        payload.getBytes(StandardCharsets.UTF_8),
        "Stripe-Signature",
        signature(payload, secret));
  }

  private long applied(String eventId) {
    return jdbc.queryForObject(
        "SELECT COUNT(*) FROM payments_received WHERE event_id = ?", Long.class, eventId);
  }

  @Test
  void aDeliveryIsAppliedOnceHoweverOftenItArrives() throws Exception {
    String payload = "{\"id\":\"evt_once\",\"type\":\"charge.succeeded\"}";
    assertThat(deliver(payload, WEBHOOK_SECRET).statusCode()).isEqualTo(200);
    assertThat(deliver(payload, WEBHOOK_SECRET).statusCode()).isEqualTo(200);
    assertThat(applied("evt_once")).isEqualTo(1);
  }

  @Test
  void aDeliveryWithABadSignatureIsRefusedAndChangesNothing() throws Exception {
    String payload = "{\"id\":\"evt_forged\",\"type\":\"charge.succeeded\"}";
    assertThat(deliver(payload, "whsec_someone_else").statusCode()).isEqualTo(400);
    assertThat(applied("evt_forged")).isZero();
  }

  @Test
  void aFailingHandlerRollsBackItsWriteAndTheReceiptSoARedeliveryRunsIt() throws Exception {
    String payload = "{\"id\":\"evt_fails\",\"fail\":true}";
    assertThat(deliver(payload, WEBHOOK_SECRET).statusCode()).isEqualTo(500);
    assertThat(applied("evt_fails")).isZero();
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM saferetry_inbox WHERE message_id = 'evt_fails'", Long.class))
        .isZero();
  }
}
