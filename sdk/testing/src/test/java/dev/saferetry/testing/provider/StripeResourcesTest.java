package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.provider.StripeList;
import dev.saferetry.testing.FakeTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Payment intents, lists and searches of the Stripe dialect. */
class StripeResourcesTest {
  record Charge(String id, long amount) {}

  static final Operation<Void, StripeList<Charge>> LIST_CHARGES =
      Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});

  private final FakeProvider provider = FakeProvider.builder().dialect(Dialect.STRIPE).start();
  private final RawHttp raw = RawHttp.stripe(provider);

  @AfterEach
  void stop() {
    provider.close();
  }

  private JsonNode post(String path, String form) {
    RawHttp.Reply reply = raw.form("POST", path, form);
    assertThat(reply.status()).as("POST %s %s: %s", path, form, reply.body()).isEqualTo(200);
    return reply.body();
  }

  @Test
  void aPaymentIntentIsCreatedConfirmedAndCapturedWithItsChargeExpanded() {
    String id =
        post("/v1/payment_intents", "amount=1500&currency=eur&capture_method=manual")
            .get("id")
            .asText();
    assertThat(raw.get("/v1/payment_intents/" + id).body().get("status").asText())
        .isEqualTo("requires_payment_method");

    JsonNode confirmed =
        post("/v1/payment_intents/" + id + "/confirm", "payment_method=pm_card_visa");
    JsonNode captured =
        post(
            "/v1/payment_intents/" + id + "/capture",
            "amount_to_capture=1000&expand[]=latest_charge");

    assertThat(confirmed.get("status").asText()).isEqualTo("requires_capture");
    assertThat(confirmed.get("amount_capturable").asLong()).isEqualTo(1500);
    assertThat(captured.get("status").asText()).isEqualTo("succeeded");
    assertThat(captured.get("amount_received").asLong()).isEqualTo(1000);
    assertThat(captured.at("/latest_charge/object").asText()).isEqualTo("charge");
    assertThat(captured.at("/latest_charge/amount_captured").asLong()).isEqualTo(1000);
    assertThat(captured.at("/latest_charge/payment_intent").asText()).isEqualTo(id);
    assertThat(provider.effects())
        .extracting(Effect::operation)
        .containsExactly(
            "POST /v1/payment_intents",
            "POST /v1/payment_intents/{id}/confirm",
            "POST /v1/payment_intents/{id}/capture");
    assertThat(provider.effects()).extracting(Effect::objectId).containsOnly(id);
  }

  @Test
  void aStepTheIntentsStatusDoesNotAllowIsRefusedAndChangesNothing() {
    String id =
        post(
                "/v1/payment_intents",
                "amount=900&currency=usd&payment_method=pm_card_visa&confirm=true")
            .get("id")
            .asText();

    RawHttp.Reply capture = raw.form("POST", "/v1/payment_intents/" + id + "/capture", "");
    RawHttp.Reply cancel = raw.form("POST", "/v1/payment_intents/" + id + "/cancel", "");

    assertThat(capture.status()).isEqualTo(400);
    assertThat(capture.body().at("/error/code").asText())
        .isEqualTo("payment_intent_unexpected_state");
    assertThat(cancel.status()).isEqualTo(400);
    assertThat(raw.get("/v1/payment_intents/" + id).body().get("status").asText())
        .isEqualTo("succeeded");
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void aCancelledIntentKeepsItsReasonAndARefundByIntentRefundsItsCharge() {
    String open = post("/v1/payment_intents", "amount=300&currency=eur").get("id").asText();
    JsonNode cancelled =
        post(
            "/v1/payment_intents/" + open + "/cancel", "cancellation_reason=requested_by_customer");
    String paid =
        post(
                "/v1/payment_intents",
                "amount=500&currency=eur&payment_method=pm_card_visa&confirm=true")
            .get("id")
            .asText();
    JsonNode refund = post("/v1/refunds", "payment_intent=" + paid + "&amount=200&expand[]=charge");
    RawHttp.Reply tooMuch =
        raw.form("POST", "/v1/refunds", "payment_intent=" + paid + "&amount=400");

    assertThat(cancelled.get("status").asText()).isEqualTo("canceled");
    assertThat(cancelled.get("cancellation_reason").asText()).isEqualTo("requested_by_customer");
    assertThat(refund.get("amount").asLong()).isEqualTo(200);
    assertThat(refund.get("payment_intent").asText()).isEqualTo(paid);
    assertThat(refund.at("/charge/amount_refunded").asLong()).isEqualTo(200);
    assertThat(tooMuch.status()).isEqualTo(400);
    assertThat(tooMuch.body().at("/error/code").asText()).isEqualTo("amount_too_large");
  }

  @Test
  void aDeclinedConfirmIs402WithTheIntentBackToRequiringAPaymentMethod() {
    String id = post("/v1/payment_intents", "amount=100&currency=eur").get("id").asText();

    RawHttp.Reply declined =
        raw.form(
            "POST",
            "/v1/payment_intents/" + id + "/confirm",
            "payment_method=pm_card_chargeDeclined");

    assertThat(declined.status()).isEqualTo(402);
    assertThat(declined.body().at("/error/type").asText()).isEqualTo("card_error");
    assertThat(declined.body().at("/error/payment_intent/status").asText())
        .isEqualTo("requires_payment_method");
    assertThat(
            post("/v1/payment_intents/" + id + "/confirm", "payment_method=pm_card_visa")
                .get("status")
                .asText())
        .isEqualTo("succeeded");
  }

  @Test
  void aSafeRetryPaginationWalksEveryChargeOnceNewestFirst() {
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      created.add(
          0, post("/v1/charges", "amount=" + (100 + i) + "&currency=eur").get("id").asText());
    }
    try (SafeRetryClient stripe = Clients.stripe(provider, new FakeTime()).build()) {
      List<String> listed = new ArrayList<>();
      RequestOptions pages = RequestOptions.none().withQueryParam("limit", 10);
      for (Charge c : stripe.paginate(LIST_CHARGES, StripeList.style(Charge::id), pages)) {
        listed.add(c.id());
      }
      assertThat(listed).containsExactlyElementsOf(created);
    }
    assertThat(provider.received().stream().filter(r -> r.operation().equals("GET /v1/charges")))
        .hasSize(3);
  }

  @Test
  void endingBeforeWalksBackTowardsTheNewest() {
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      created.add(
          0, post("/v1/charges", "amount=" + (100 + i) + "&currency=eur").get("id").asText());
    }

    JsonNode page = raw.get("/v1/charges?limit=2&ending_before=" + created.get(3)).body();

    assertThat(page.get("data"))
        .extracting(n -> n.get("id").asText())
        .containsExactly(created.get(1), created.get(2));
    assertThat(page.get("has_more").asBoolean()).isTrue();
  }

  @Test
  void aSearchByMetadataWalksEveryMatchThroughNextPage() {
    for (int i = 0; i < 5; i++) {
      post(
          "/v1/charges",
          "amount="
              + (1000 + i)
              + "&currency=eur&metadata[order]="
              + (i % 2 == 0 ? "even" : "odd"));
    }
    List<Long> amounts = new ArrayList<>();
    String page = null;
    int pages = 0;
    do {
      String query =
          "/v1/charges/search?limit=2&query=metadata%5B%27order%27%5D%3A%27even%27%20AND%20amount%3E1000"
              + (page == null ? "" : "&page=" + page);
      JsonNode result = raw.get(query).body();
      assertThat(result.get("object").asText()).isEqualTo("search_result");
      result.get("data").forEach(c -> amounts.add(c.get("amount").asLong()));
      page = result.get("next_page").isNull() ? null : result.get("next_page").asText();
      pages++;
    } while (page != null);

    assertThat(amounts).containsExactly(1004L, 1002L);
    assertThat(pages).isEqualTo(1);
    RawHttp.Reply mixed =
        raw.get(
            "/v1/charges/search?query=amount%3E1%20AND%20currency%3A%27eur%27%20OR%20status%3A%27failed%27");
    assertThat(mixed.status()).isEqualTo(400);
  }

  @Test
  void aCustomerSearchPagesWithNextPage() {
    for (int i = 0; i < 5; i++) {
      post("/v1/customers", "email=user" + i + "@example.com&name=Amy%20" + i);
    }

    JsonNode first = raw.get("/v1/customers/search?limit=3&query=name~%22amy%22").body();
    JsonNode second =
        raw.get(
                "/v1/customers/search?limit=3&query=name~%22amy%22&page="
                    + first.get("next_page").asText())
            .body();

    assertThat(first.get("data")).hasSize(3);
    assertThat(first.get("has_more").asBoolean()).isTrue();
    assertThat(second.get("data")).hasSize(2);
    assertThat(second.get("next_page").isNull()).isTrue();
  }

  @Test
  void aDeletedCustomerIsExpandedAsDeleted() {
    String customer = post("/v1/customers", "email=gone@example.com").get("id").asText();
    String charge =
        post("/v1/charges", "amount=100&currency=eur&customer=" + customer).get("id").asText();
    RawHttp.Reply deleted = raw.form("DELETE", "/v1/customers/" + customer, null);

    JsonNode expanded = raw.get("/v1/charges/" + charge + "?expand[]=customer").body();

    assertThat(deleted.body().get("deleted").asBoolean()).isTrue();
    assertThat(expanded.at("/customer/deleted").asBoolean()).isTrue();
    assertThat(raw.get("/v1/customers/" + customer).status()).isEqualTo(404);
    assertThat(provider.effectsPerOperation()).containsEntry("DELETE /v1/customers/{id}", 1);
  }
}
