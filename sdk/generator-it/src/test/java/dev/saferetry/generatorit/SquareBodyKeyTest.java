package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.generatorit.square.CreatePaymentRequest;
import dev.saferetry.generatorit.square.CreatePaymentResponse;
import dev.saferetry.generatorit.square.Currency;
import dev.saferetry.generatorit.square.Money;
import dev.saferetry.generatorit.square.Payment;
import dev.saferetry.generatorit.square.PaymentsListQuery;
import dev.saferetry.generatorit.square.SquareClient;
import dev.saferetry.idempotency.KeyStore;
import java.util.List;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/** Square's document puts the key in the body field idempotency_key: so does the client. */
class SquareBodyKeyTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void theKeyGoesInTheBodyFieldTheSameOnEveryAttemptAndNotInAHeader() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      server.enqueue(
          Wire.json(
              500,
              "{\"errors\":[{\"category\":\"API_ERROR\",\"code\":\"INTERNAL_SERVER_ERROR\"}]}"));
      server.enqueue(Wire.json(200, "{\"payment\":{\"id\":\"pay_1\",\"status\":\"COMPLETED\"}}"));
      CallResult<CreatePaymentResponse> r =
          new SquareClient(client)
              .payments()
              .create(
                  CreatePaymentRequest.builder()
                      .sourceId("cnon:card-nonce-ok")
                      .amountMoney(
                          Money.builder().amount(100L).currency(Currency.of("USD")).build())
                      .build(),
                  RequestOptions.none().withIntentId("order-9"));
      JsonNode first = MAPPER.readTree(server.takeRequest().getBody().utf8());
      var secondRequest = server.takeRequest();
      JsonNode second = MAPPER.readTree(secondRequest.getBody().utf8());
      assertThat(first.get("idempotency_key").asText()).isEqualTo(r.key().value());
      assertThat(second).isEqualTo(first);
      assertThat(secondRequest.getHeaders().get("Idempotency-Key")).isNull();
      assertThat(first.get("amount_money").get("amount").asLong()).isEqualTo(100L);
      assertThat(r.value().payment().id()).isEqualTo("pay_1");
    }
  }

  @Test
  void listAllFollowsTheCursor() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      server.enqueue(Wire.json(200, "{\"payments\":[{\"id\":\"p1\"}],\"cursor\":\"c2\"}"));
      server.enqueue(Wire.json(200, "{\"payments\":[{\"id\":\"p2\"}]}"));
      List<Payment> all =
          new SquareClient(client)
                  .payments()
                  .listAll(
                      PaymentsListQuery.builder().locationId("L1").build(), RequestOptions.none())
                  .stream()
                  .toList();
      assertThat(all).extracting(Payment::id).containsExactly("p1", "p2");
      assertThat(server.takeRequest().getTarget()).isEqualTo("/v2/payments?location_id=L1");
      assertThat(server.takeRequest().getTarget())
          .isEqualTo("/v2/payments?location_id=L1&cursor=c2");
    }
  }
}
