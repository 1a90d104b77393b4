package dev.saferetry.examples.support.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.examples.support.stripe.StripeHttp.Answer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import okhttp3.RequestBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Stripe-shaped server's endpoints, objects and errors, over real HTTP. */
class StripeShapedResourcesTest {
  private final StripeHttp stripe = new StripeHttp();

  @AfterEach
  void stop() {
    stripe.close();
  }

  String charge(String form, String... headers) throws IOException {
    Answer a = stripe.post("/v1/charges", form, headers);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().get("id").asText();
  }

  @Test
  void aChargeIsCreatedFromItsFormParametersWithAnExpandedCustomer() throws IOException {
    String customer =
        stripe
            .post("/v1/customers", "email=jenny%40example.com&name=Jenny")
            .json()
            .get("id")
            .asText();
    Answer a =
        stripe.post(
            "/v1/charges",
            "amount=2000&currency=USD&customer="
                + customer
                + "&description=Tee+shirt&metadata[order_id]=6735&expand[]=customer");
    JsonNode c = a.json();
    assertThat(c.get("id").asText()).startsWith("ch_");
    assertThat(c.get("object").asText()).isEqualTo("charge");
    assertThat(c.get("amount").asLong()).isEqualTo(2000);
    assertThat(c.get("currency").asText()).isEqualTo("usd");
    assertThat(c.get("description").asText()).isEqualTo("Tee shirt");
    assertThat(c.at("/metadata/order_id").asText()).isEqualTo("6735");
    assertThat(c.at("/customer/email").asText()).isEqualTo("jenny@example.com");
    assertThat(a.header("Request-Id")).matches("req_[A-Za-z0-9]{14}");
    assertThat(a.header("Stripe-Version")).isEqualTo(StripeShapedServer.DEFAULT_VERSION);
    assertThat(a.header("Content-Type")).isEqualTo("application/json");
    assertThat(stripe.server.sideEffects()).isEqualTo(2);
  }

  @Test
  void aChargeIsRetrievedByIdWithOrWithoutExpansion() throws IOException {
    String customer = stripe.post("/v1/customers", "name=A").json().get("id").asText();
    String id = charge("amount=100&currency=eur&customer=" + customer);
    assertThat(stripe.get("/v1/charges/" + id).json().get("customer").asText()).isEqualTo(customer);
    JsonNode expanded = stripe.get("/v1/charges/" + id + "?expand[]=customer").json();
    assertThat(expanded.at("/customer/object").asText()).isEqualTo("customer");
    Answer missing = stripe.get("/v1/charges/ch_nope");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().at("/error/code").asText()).isEqualTo("resource_missing");
  }

  @Test
  void chargesAreListedNewestFirstInPagesWithCursors() throws IOException {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(0, charge("amount=" + (100 + i) + "&currency=usd"));
    }
    JsonNode first = stripe.get("/v1/charges?limit=2").json();
    assertThat(first.get("object").asText()).isEqualTo("list");
    assertThat(first.get("url").asText()).isEqualTo("/v1/charges");
    assertThat(first.get("has_more").asBoolean()).isTrue();
    assertThat(first.at("/data/0/id").asText()).isEqualTo(ids.get(0));
    assertThat(first.at("/data/1/id").asText()).isEqualTo(ids.get(1));
    JsonNode second = stripe.get("/v1/charges?limit=2&starting_after=" + ids.get(1)).json();
    assertThat(second.at("/data/0/id").asText()).isEqualTo(ids.get(2));
    assertThat(second.get("has_more").asBoolean()).isTrue();
    JsonNode last = stripe.get("/v1/charges?limit=2&starting_after=" + ids.get(3)).json();
    assertThat(last.get("data")).hasSize(1);
    assertThat(last.get("has_more").asBoolean()).isFalse();
    JsonNode before = stripe.get("/v1/charges?limit=2&ending_before=" + ids.get(3)).json();
    assertThat(before.at("/data/0/id").asText()).isEqualTo(ids.get(1));
    assertThat(before.get("has_more").asBoolean()).isTrue();
    assertThat(stripe.get("/v1/charges").json().get("data")).hasSize(5);
  }

  @Test
  void badListRequestsAreRefused() throws IOException {
    assertThat(stripe.get("/v1/charges?limit=101").status()).isEqualTo(400);
    assertThat(stripe.get("/v1/charges?limit=0").status()).isEqualTo(400);
    Answer unknown = stripe.get("/v1/charges?starting_after=ch_unknown");
    assertThat(unknown.json().at("/error/code").asText()).isEqualTo("resource_missing");
    assertThat(stripe.get("/v1/charges?customer=cus_1").json().at("/error/code").asText())
        .isEqualTo("parameter_unknown");
  }

  @Test
  void dataBelongsToTheAccountInStripeAccount() throws IOException {
    String id = charge("amount=100&currency=usd", "Stripe-Account", "acct_1A");
    assertThat(stripe.get("/v1/charges/" + id).status()).isEqualTo(404);
    assertThat(stripe.get("/v1/charges/" + id, "Stripe-Account", "acct_1A").status())
        .isEqualTo(200);
    assertThat(stripe.get("/v1/charges", "Stripe-Account", "acct_2B").json().get("data")).isEmpty();
  }

  @Test
  void refundsReduceTheChargeUntilNothingIsLeft() throws IOException {
    String id = charge("amount=1000&currency=usd");
    Answer part =
        stripe.post("/v1/refunds", "charge=" + id + "&amount=300&reason=requested_by_customer");
    assertThat(part.json().get("object").asText()).isEqualTo("refund");
    assertThat(part.json().get("amount").asLong()).isEqualTo(300);
    Answer tooMuch = stripe.post("/v1/refunds", "charge=" + id + "&amount=701");
    assertThat(tooMuch.json().at("/error/code").asText()).isEqualTo("amount_too_large");
    stripe.post("/v1/refunds", "charge=" + id);
    JsonNode charge = stripe.get("/v1/charges/" + id).json();
    assertThat(charge.get("amount_refunded").asLong()).isEqualTo(1000);
    assertThat(charge.get("refunded").asBoolean()).isTrue();
    Answer again = stripe.post("/v1/refunds", "charge=" + id);
    assertThat(again.json().at("/error/code").asText()).isEqualTo("charge_already_refunded");
    assertThat(stripe.server.refundsCreated()).isEqualTo(2);
  }

  @Test
  void aCustomerIsDeletedWithoutBodyOrKeyAndOnlyOnce() throws IOException {
    String id = stripe.post("/v1/customers", "name=Gone").json().get("id").asText();
    Answer withBody =
        stripe.send(
            stripe
                .request("/v1/customers/" + id)
                .delete(RequestBody.create("{}", okhttp3.MediaType.get("application/json")))
                .build());
    assertThat(withBody.status()).isEqualTo(400);
    Answer deleted = stripe.delete("/v1/customers/" + id);
    assertThat(deleted.json().get("deleted").asBoolean()).isTrue();
    assertThat(deleted.json().get("id").asText()).isEqualTo(id);
    assertThat(stripe.delete("/v1/customers/" + id).status()).isEqualTo(404);
    assertThat(stripe.server.customersDeleted()).isEqualTo(1);
  }

  @Test
  void requestsStripeWouldRefuseAreRefusedTheSameWay() throws IOException {
    Answer noKey =
        stripe.send(
            new okhttp3.Request.Builder().url(stripe.server.baseUrl() + "/v1/charges").build());
    assertThat(noKey.status()).isEqualTo(401);
    Answer json =
        stripe.send(
            stripe
                .request("/v1/charges")
                .post(
                    RequestBody.create("{\"amount\":1}", okhttp3.MediaType.get("application/json")))
                .build());
    assertThat(json.status()).isEqualTo(400);
    Answer unknownParam = stripe.post("/v1/charges", "amount=1&currency=usd&colour=red");
    assertThat(unknownParam.json().at("/error/code").asText()).isEqualTo("parameter_unknown");
    assertThat(unknownParam.json().at("/error/param").asText()).isEqualTo("colour");
    assertThat(stripe.post("/v1/charges", "amount=1.5&currency=usd").status()).isEqualTo(400);
    assertThat(stripe.post("/v1/charges", "amount=1&currency=usd&a=%zz").status()).isEqualTo(400);
    assertThat(stripe.get("/v1/payouts").status()).isEqualTo(404);
    assertThat(stripe.get("/v1/charges", "Stripe-Version", "latest").status()).isEqualTo(400);
    assertThat(stripe.get("/v1/charges", "Stripe-Account", "cus_1").status()).isEqualTo(400);
    assertThat(stripe.server.chargesCreated()).isZero();
    Answer versioned = stripe.get("/v1/charges", "Stripe-Version", "2025-01-27.acacia");
    assertThat(versioned.header("Stripe-Version")).isEqualTo("2025-01-27.acacia");
  }

  @Test
  void basicAuthWithTheKeyAsUserIsAccepted() throws IOException {
    String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("sk_test_b:".getBytes());
    assertThat(stripe.get("/v1/charges", "Authorization", basic).status()).isEqualTo(200);
  }
}
