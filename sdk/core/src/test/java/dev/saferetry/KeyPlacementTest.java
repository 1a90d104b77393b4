package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.idempotency.KeyPlacement;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class KeyPlacementTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(500, "usd");

  private RecordedRequest sendWith(KeyPlacement placement) throws Exception {
    server.enqueue(charge());
    try (SafeRetryClient c = builder().keyPlacement(placement).build()) {
      c.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIdempotencyKey("k-123"));
    }
    return drain(server).get(0);
  }

  @Test
  void defaultIsTheBareKeyInIdempotencyKeyHeader() throws Exception {
    RecordedRequest r = sendWith(KeyPlacement.header());
    assertThat(r.getHeaders().get("Idempotency-Key")).isEqualTo("k-123");
  }

  @Test
  void headerNameIsConfigurable() throws Exception {
    RecordedRequest r = sendWith(KeyPlacement.header("PayPal-Request-Id"));
    assertThat(r.getHeaders().get("PayPal-Request-Id")).isEqualTo("k-123");
    assertThat(r.getHeaders().get("Idempotency-Key")).isNull();
  }

  @Test
  void structuredFieldStringIsQuoted() throws Exception {
    RecordedRequest r = sendWith(KeyPlacement.structuredHeader("Idempotency-Key"));
    assertThat(r.getHeaders().get("Idempotency-Key")).isEqualTo("\"k-123\"");
  }

  @Test
  void structuredFieldStringEscapesQuotesAndBackslashes() {
    assertThat(
            KeyPlacement.structuredHeader("K")
                .headerValue(dev.saferetry.idempotency.IdempotencyKey.of("a\"b\\c")))
        .isEqualTo("\"a\\\"b\\\\c\"");
  }

  @Test
  void keyCanGoIntoATopLevelBodyField() throws Exception {
    RecordedRequest r = sendWith(KeyPlacement.bodyField("idempotency_key"));
    JsonNode body = new ObjectMapper().readTree(r.getBody().utf8());
    assertThat(body.get("idempotency_key").asText()).isEqualTo("k-123");
    assertThat(body.get("amount").asLong()).isEqualTo(500);
    assertThat(r.getHeaders().get("Idempotency-Key")).isNull();
  }

  @Test
  void getRequestsCarryNoKey() throws Exception {
    server.enqueue(charge());
    CallResult<?> result = new PaymentsClient(client).charges().retrieve("ch_1");
    RecordedRequest r = drain(server).get(0);
    assertThat(r.getMethod()).isEqualTo("GET");
    assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/charges/ch_1");
    assertThat(r.getHeaders().get("Idempotency-Key")).isNull();
    assertThat(result.key()).isNull();
  }
}
