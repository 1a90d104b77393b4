package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.generatorit.stripe.Charge;
import dev.saferetry.generatorit.stripe.ChargesCreateRequest;
import dev.saferetry.generatorit.stripe.StripeClient;
import dev.saferetry.generatorit.stripe.SubscriptionsCreateRequest;
import dev.saferetry.idempotency.KeyStore;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** What the generated Stripe client sends: form bodies, cleared fields, keys, escaped paths. */
class StripeFormBodyTest {
  private static final String CHARGE =
      "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":500,\"currency\":\"usd\","
          + "\"status\":\"succeeded\",\"created\":1700000000}";

  private static String form(RecordedRequest r) {
    return URLDecoder.decode(r.getBody().utf8(), StandardCharsets.UTF_8);
  }

  @Test
  void nestedObjectsMapsAndListsGoAsBracketedFormFields() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(Wire.json(200, CHARGE));
      ChargesCreateRequest request =
          ChargesCreateRequest.builder()
              .amount(500L)
              .currency("usd")
              .metadata(Map.of("order_id", "6735"))
              .shipping(
                  ChargesCreateRequest.Shipping.builder()
                      .name("Jenny Rosen")
                      .address(
                          ChargesCreateRequest.Shipping.Address.builder()
                              .city("Berlin")
                              .country("DE")
                              .build())
                      .build())
              .expand(List.of("customer", "balance_transaction"))
              .build();
      new StripeClient(client).charges().create(request, RequestOptions.none());
      assertThat(form(server.takeRequest()))
          .isEqualTo(
              "amount=500&currency=usd&expand[0]=customer&expand[1]=balance_transaction"
                  + "&metadata[order_id]=6735&shipping[address][city]=Berlin"
                  + "&shipping[address][country]=DE&shipping[name]=Jenny Rosen");
    }
  }

  @Test
  void aClearedFieldIsSentEmptyAndAnAbsentOneNotAtAll() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(Wire.json(200, CHARGE));
      server.enqueue(Wire.json(200, CHARGE));
      StripeClient stripe = new StripeClient(client);
      stripe
          .charges()
          .create(
              ChargesCreateRequest.builder().amount(1L).clearMetadata().build(),
              RequestOptions.none());
      stripe
          .charges()
          .create(ChargesCreateRequest.builder().amount(1L).build(), RequestOptions.none());
      assertThat(form(server.takeRequest())).isEqualTo("amount=1&metadata=");
      assertThat(form(server.takeRequest())).isEqualTo("amount=1");
    }
  }

  @Test
  void everyAttemptOfAWriteCarriesTheSameKeyInTheHeaderTheStripePresetNames() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(Wire.json(503, "{\"error\":{\"type\":\"api_error\"}}"));
      server.enqueue(Wire.json(200, CHARGE));
      CallResult<Charge> r =
          new StripeClient(client)
              .charges()
              .create(
                  ChargesCreateRequest.builder().amount(500L).currency("usd").build(),
                  RequestOptions.none().withIntentId("order-6735"));
      String first = server.takeRequest().getHeaders().get("Idempotency-Key");
      String second = server.takeRequest().getHeaders().get("Idempotency-Key");
      assertThat(first).isNotBlank().isEqualTo(second).isEqualTo(r.key().value());
      assertThat(r.attempts()).hasSize(2);
    }
  }

  @Test
  void readsCarryNoKey() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(Wire.json(200, CHARGE));
      new StripeClient(client).charges().retrieve("ch_1", null, RequestOptions.none());
      assertThat(server.takeRequest().getHeaders().get("Idempotency-Key")).isNull();
    }
  }

  @Test
  void pathParametersAreOneEscapedSegmentAndDotSegmentsAreRefused() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(Wire.json(200, CHARGE));
      StripeClient stripe = new StripeClient(client);
      stripe.charges().retrieve("../customers/cus_1?x=#", null, RequestOptions.none());
      assertThat(server.takeRequest().getTarget())
          .isEqualTo("/v1/charges/..%2Fcustomers%2Fcus_1%3Fx%3D%23");
      assertThatThrownBy(() -> stripe.charges().retrieve("..", null, RequestOptions.none()))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(server.getRequestCount()).isEqualTo(1);
    }
  }

  @Test
  void aListOfObjectsIsIndexed() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(
          Wire.json(
              200,
              "{\"id\":\"sub_1\",\"object\":\"subscription\",\"status\":\"active\","
                  + "\"customer\":\"cus_1\",\"created\":1700000000}"));
      new StripeClient(client)
          .subscriptions()
          .create(
              SubscriptionsCreateRequest.builder()
                  .customer("cus_1")
                  .items(
                      List.of(
                          SubscriptionsCreateRequest.ItemsItem.builder()
                              .price("price_1")
                              .quantity(2L)
                              .build(),
                          SubscriptionsCreateRequest.ItemsItem.builder()
                              .price("price_2")
                              .metadata(Map.of("seat", "a"))
                              .build()))
                  .build(),
              RequestOptions.none());
      assertThat(form(server.takeRequest()))
          .isEqualTo(
              "customer=cus_1&items[0][price]=price_1&items[0][quantity]=2"
                  + "&items[1][metadata][seat]=a&items[1][price]=price_2");
    }
  }
}
