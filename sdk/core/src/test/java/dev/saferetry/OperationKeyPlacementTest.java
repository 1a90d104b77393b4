package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.KeyPlacement;
import java.util.List;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** An operation's own key placement and limit, as a generated client sets them from its spec. */
class OperationKeyPlacementTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(500, "usd");

  private List<RecordedRequest> send(Operation<ChargeCreateParams, ?> op, RequestOptions options)
      throws Exception {
    try (SafeRetryClient c = builder().keyPlacement(KeyPlacement.header("Client-Key")).build()) {
      c.execute(op, PARAMS, options);
    }
    return drain(server);
  }

  @Test
  void anOperationsHeaderPlacementReplacesTheClients() throws Exception {
    server.enqueue(charge());
    RecordedRequest r =
        send(
                Charges.CREATE.withKeyPlacement(KeyPlacement.header("X-Request-Key")),
                RequestOptions.none().withIdempotencyKey("k-1"))
            .get(0);
    assertThat(r.getHeaders().get("X-Request-Key")).isEqualTo("k-1");
    assertThat(r.getHeaders().get("Client-Key")).isNull();
  }

  @Test
  void anOperationsBodyFieldPlacementPutsTheIntentsKeyInTheBodyOnEveryAttempt() throws Exception {
    server.enqueue(new mockwebserver3.MockResponse.Builder().code(503).build());
    server.enqueue(charge());
    List<RecordedRequest> sent =
        send(
            Charges.CREATE.withKeyPlacement(KeyPlacement.bodyField("request_token")),
            RequestOptions.none().withIntentId("order-1"));
    ObjectMapper m = new ObjectMapper();
    assertThat(sent).hasSize(2);
    String first = m.readTree(sent.get(0).getBody().utf8()).get("request_token").asText();
    assertThat(first).isNotBlank();
    assertThat(m.readTree(sent.get(1).getBody().utf8()).get("request_token").asText())
        .isEqualTo(first);
    assertThat(sent.get(0).getHeaders().get("Client-Key")).isNull();
  }

  @Test
  void aKeyOverTheOperationsLimitIsRefusedBeforeAnythingIsSent() throws Exception {
    assertThatThrownBy(
            () ->
                send(
                    Charges.CREATE.withKeyMaxLength(8),
                    RequestOptions.none().withIdempotencyKey("123456789")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8 characters");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aLimitBelowAUuidsLengthGetsAKeyOf32HexDigits() throws Exception {
    server.enqueue(charge());
    RecordedRequest r =
        send(
                Charges.CREATE
                    .withKeyPlacement(KeyPlacement.header("X-Request-Key"))
                    .withKeyMaxLength(32),
                RequestOptions.none())
            .get(0);
    assertThat(r.getHeaders().get("X-Request-Key")).matches("[0-9a-f]{32}");
  }

  @Test
  void placementAndLimitArePartOfTheOperationsValue() {
    assertThat(Charges.CREATE.keyPlacement()).isEmpty();
    assertThat(Charges.CREATE.keyMaxLength()).isZero();
    Operation<?, ?> placed = Charges.CREATE.withKeyPlacement(KeyPlacement.bodyField("k"));
    assertThat(placed.keyPlacement()).contains(KeyPlacement.bodyField("k"));
    assertThat(placed).isNotEqualTo(Charges.CREATE);
    assertThatThrownBy(() -> Charges.CREATE.withKeyMaxLength(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Charges.CREATE.withKeyPlacement(KeyPlacement.header("bad header")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
