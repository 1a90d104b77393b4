package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.generatorit.stripe.Card;
import dev.saferetry.generatorit.stripe.Charge;
import dev.saferetry.generatorit.stripe.ChargesListQuery;
import dev.saferetry.generatorit.stripe.ChargesSearchQuery;
import dev.saferetry.generatorit.stripe.Customer;
import dev.saferetry.generatorit.stripe.PaymentSource;
import dev.saferetry.generatorit.stripe.StripeClient;
import dev.saferetry.idempotency.KeyStore;
import java.time.Instant;
import java.util.List;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/** What the generated Stripe client reads: nothing it does not know is lost or fails. */
class StripeResponsesTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final String CHARGE =
      "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":500,\"currency\":\"usd\","
          + "\"status\":\"requires_review\",\"created\":1700000000,"
          + "\"customer\":\"cus_1\","
          + "\"balance_transaction\":{\"id\":\"txn_1\",\"object\":\"balance_transaction\","
          + "\"amount\":500,\"created\":1700000001,\"currency\":\"usd\",\"exchange_rate\":1.0832},"
          + "\"source\":{\"id\":\"card_1\",\"object\":\"card\",\"brand\":\"Visa\",\"last4\":\"4242\","
          + "\"exp_month\":12,\"exp_year\":2030,\"wallet\":{\"type\":\"apple_pay\"}},"
          + "\"radar_options\":{\"session\":\"rs_1\"}}";

  private static Charge charge(SafeRetryClient client, MockWebServer server) {
    server.enqueue(Wire.json(200, CHARGE));
    return new StripeClient(client).charges().retrieve("ch_1", null, RequestOptions.none()).value();
  }

  @Test
  void anUnknownEnumValueIsKeptAsItsRawText() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      Charge c = charge(client, server);
      assertThat(c.status()).isNotNull();
      assertThat(c.status().value()).isEqualTo("requires_review");
      assertThat(c.status().isKnown()).isFalse();
      assertThat(Charge.Status.of("succeeded")).isSameAs(Charge.Status.SUCCEEDED);
    }
  }

  @Test
  void unknownFieldsAreReadableAndWrittenBackAsRead() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      Charge c = charge(client, server);
      assertThat(c.extra()).containsKey("radar_options");
      JsonNode written = MAPPER.readTree(MAPPER.writeValueAsString(c));
      assertThat(written).isEqualTo(MAPPER.readTree(CHARGE));
    }
  }

  @Test
  void anExpandableFieldIsAnIdOrTheObject() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      Charge c = charge(client, server);
      assertThat(c.customer().id()).isEqualTo("cus_1");
      assertThat(c.customer().isExpanded()).isFalse();
      assertThat(c.balanceTransaction().id()).isEqualTo("txn_1");
      assertThat(c.balanceTransaction().object())
          .get()
          .satisfies(t -> assertThat(t.exchangeRate()).isEqualByComparingTo("1.0832"));
    }
  }

  @Test
  void aUnionIsToldApartByItsObjectValueAndAnUnknownVariantKeepsItsFields() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      Charge c = charge(client, server);
      assertThat(c.source()).isInstanceOf(Card.class);
      assertThat(((Card) c.source()).last4()).isEqualTo("4242");
      assertThat(((Card) c.source()).extra()).containsKey("wallet");
      PaymentSource other =
          MAPPER.readValue(
              "{\"id\":\"src_1\",\"object\":\"source\",\"flow\":\"none\"}", PaymentSource.class);
      assertThat(other).isInstanceOf(PaymentSource.Unknown.class);
      assertThat(((PaymentSource.Unknown) other).fields()).containsEntry("flow", "none");
      assertThat(MAPPER.readTree(MAPPER.writeValueAsString(other)))
          .isEqualTo(MAPPER.readTree("{\"id\":\"src_1\",\"object\":\"source\",\"flow\":\"none\"}"));
    }
  }

  @Test
  void unixTimesAreInstants() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      assertThat(charge(client, server).created().instant())
          .isEqualTo(Instant.parse("2023-11-14T22:13:20Z"));
    }
  }

  @Test
  void listAllWalksEveryPageAfterTheLastItemWithTheSameQuery() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(
          Wire.json(
              200,
              "{\"object\":\"list\",\"url\":\"/v1/charges\",\"has_more\":true,"
                  + "\"data\":[{\"id\":\"ch_1\",\"customer\":{\"id\":\"cus_1\",\"object\":\"customer\"}},{\"id\":\"ch_2\"}]}"));
      server.enqueue(
          Wire.json(
              200,
              "{\"object\":\"list\",\"url\":\"/v1/charges\",\"has_more\":false,"
                  + "\"data\":[{\"id\":\"ch_3\"}]}"));
      List<Charge> all =
          new StripeClient(client)
                  .charges()
                  .listAll(
                      ChargesListQuery.builder().limit(2L).expand(List.of("data.customer")).build(),
                      RequestOptions.none())
                  .stream()
                  .toList();
      assertThat(all).extracting(Charge::id).containsExactly("ch_1", "ch_2", "ch_3");
      assertThat(all.get(0).customer().object()).get().extracting(Customer::id).isEqualTo("cus_1");
      assertThat(server.takeRequest().getTarget())
          .isEqualTo("/v1/charges?expand[]=data.customer&limit=2");
      assertThat(server.takeRequest().getTarget())
          .isEqualTo("/v1/charges?expand[]=data.customer&limit=2&starting_after=ch_2");
    }
  }

  @Test
  void searchAllFollowsNextPage() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.stripe(server, KeyStore.inMemory())) {
      server.enqueue(
          Wire.json(
              200,
              "{\"object\":\"search_result\",\"has_more\":true,"
                  + "\"next_page\":\"pg_2\",\"data\":[{\"id\":\"ch_1\"}]}"));
      server.enqueue(
          Wire.json(
              200,
              "{\"object\":\"search_result\",\"has_more\":false,"
                  + "\"next_page\":null,\"data\":[{\"id\":\"ch_2\"}]}"));
      List<Charge> all =
          new StripeClient(client)
                  .charges()
                  .searchAll(
                      ChargesSearchQuery.builder().query("amount>100").build(),
                      RequestOptions.none())
                  .stream()
                  .toList();
      assertThat(all).extracting(Charge::id).containsExactly("ch_1", "ch_2");
      server.takeRequest();
      assertThat(server.takeRequest().getTarget())
          .isEqualTo("/v1/charges/search?query=amount%3E100&page=pg_2");
    }
  }
}
