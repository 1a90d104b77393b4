package dev.saferetry;

import static dev.saferetry.testing.Answers.CHARGE_JSON;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.QueryParams;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.provider.StripeList;
import dev.saferetry.testing.Answers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The request model on the wire: every method with an explicit key rule, bodies through the
 * operation's codec (and none at all without a body), typed repeated query parameters, generic
 * response types, and the query and identity headers as part of an intent's identity.
 */
class RequestModelTest extends ClientFixture {
  private static final Operation<Void, Charge> DELETE_CUSTOMER =
      Operation.delete("/v1/customers/{id}", Charge.class);
  private static final Operation<Void, Charge> CAPTURE =
      Operation.post("/v1/charges/{id}/capture", Void.class, Charge.class);
  private static final Operation<Map<String, Object>, Charge> FORM_CHARGE =
      Operation.post("/v1/charges", mapType(), Charge.class).withCodec(BodyCodec.form());

  @SuppressWarnings("unchecked")
  private static Class<Map<String, Object>> mapType() {
    return (Class<Map<String, Object>>) (Class<?>) Map.class;
  }

  private RequestOptions id(String id) {
    return RequestOptions.none().withPathParam("id", id);
  }

  @Test
  void defaultKeyRulesFollowTheMethodAndCanBeMadeExplicit() {
    assertThat(Operation.post("/a", Void.class, Charge.class).carriesKey()).isTrue();
    assertThat(Operation.get("/a", Charge.class).carriesKey()).isFalse();
    assertThat(Operation.delete("/a", Charge.class).carriesKey()).isFalse();
    assertThat(Operation.of("HEAD", "/a", Void.class, TypeRef.of(Void.class)).carriesKey())
        .isFalse();
    assertThat(Operation.of("OPTIONS", "/a", Void.class, TypeRef.of(Void.class)).carriesKey())
        .isFalse();
    assertThat(Operation.of("PUT", "/a", Void.class, TypeRef.of(Charge.class)).carriesKey())
        .isTrue();
    assertThat(
            Operation.of("PATCH", "/a", Void.class, TypeRef.of(Charge.class))
                .carryingKey(false)
                .carriesKey())
        .isFalse();
    assertThat(Operation.delete("/a", Charge.class).carryingKey(true).carriesKey()).isTrue();
    assertThatThrownBy(() -> Operation.of("GET", "/a", String.class, TypeRef.of(Charge.class)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDeleteSendsNoBodyAndNoKey() throws Exception {
    server.enqueue(charge());
    call(client, DELETE_CUSTOMER, null, id("cus_1"));
    RecordedRequest r = drain(server).get(0);
    assertThat(r.getMethod()).isEqualTo("DELETE");
    assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/customers/cus_1");
    assertThat(r.getBodySize()).isZero();
    assertThat(r.getHeaders().get("Content-Type")).isNull();
    assertThat(r.getHeaders().get("Idempotency-Key")).isNull();
  }

  @Test
  void aPostWithoutBodySendsZeroBytesNotAnEmptyObjectButStillItsKey() throws Exception {
    server.enqueue(charge());
    call(client, CAPTURE, null, id("ch_1"));
    RecordedRequest r = drain(server).get(0);
    assertThat(r.getMethod()).isEqualTo("POST");
    assertThat(r.getBodySize()).isZero();
    assertThat(r.getHeaders().get("Content-Length")).isEqualTo("0");
    assertThat(r.getHeaders().get("Content-Type")).isNull();
    assertThat(r.getHeaders().get("Idempotency-Key")).isNotBlank();
  }

  @Test
  void aPutCarriesItsKeyUnlessSwitchedOff() throws Exception {
    Operation<Void, Charge> put =
        Operation.of("PUT", "/v1/x", Void.class, TypeRef.of(Charge.class));
    server.enqueue(charge());
    server.enqueue(charge());
    call(client, put, null);
    call(client, put.carryingKey(false), null);
    List<RecordedRequest> sent = drain(server);
    assertThat(sent.get(0).getHeaders().get("Idempotency-Key")).isNotBlank();
    assertThat(sent.get(1).getHeaders().get("Idempotency-Key")).isNull();
  }

  @Test
  void theOperationsCodecWritesTheBodyAndARetrySendsTheSameBytes() throws Exception {
    server.enqueue(Answers.status(503));
    server.enqueue(charge());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("amount", 1000);
    body.put("currency", "eur");
    body.put("metadata", Map.of("order_id", "6735"));
    body.put("expand", List.of("customer", "balance_transaction"));
    call(client, FORM_CHARGE, body);
    List<RecordedRequest> sent = drain(server);
    assertThat(sent).hasSize(2);
    String expected =
        "amount=1000&currency=eur&expand[]=customer&expand[]=balance_transaction"
            + "&metadata[order_id]=6735";
    for (RecordedRequest r : sent) {
      assertThat(r.getHeaders().get("Content-Type"))
          .startsWith("application/x-www-form-urlencoded");
      assertThat(r.getBody().utf8()).isEqualTo(expected);
    }
    assertThat(sent.get(1).getHeaders().get("Idempotency-Key"))
        .isEqualTo(sent.get(0).getHeaders().get("Idempotency-Key"));
  }

  @Test
  void queryParametersAreTypedRepeatedAndEncoded() throws Exception {
    server.enqueue(json(200, "{\"object\":\"list\",\"has_more\":false,\"data\":[]}"));
    Operation<Void, StripeList<Charge>> list =
        Operation.get("/v1/charges", new TypeRef<StripeList<Charge>>() {});
    call(
        client,
        list,
        null,
        RequestOptions.none()
            .withQueryParam("limit", 3)
            .withQueryParam("expand[]", "data.customer")
            .withQueryParam("expand[]", "data.invoice")
            .withQueryParam("email", "a b&c=d@example.com"));
    RecordedRequest r = drain(server).get(0);
    assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/charges");
    assertThat(r.getUrl().encodedQuery())
        .isEqualTo(
            "limit=3&expand[]=data.customer&expand[]=data.invoice"
                + "&email=a%20b%26c%3Dd%40example.com");
    assertThat(r.getUrl().queryParameterValues("expand[]"))
        .containsExactly("data.customer", "data.invoice");
  }

  @Test
  void genericResponsesAreReadAsTheirFullType() {
    server.enqueue(
        json(200, "{\"object\":\"list\",\"has_more\":true,\"data\":[" + CHARGE_JSON + "]}"));
    server.enqueue(json(200, "[" + CHARGE_JSON + "," + CHARGE_JSON + "]"));
    server.enqueue(json(200, "{\"a\":[" + CHARGE_JSON + "]}"));
    StripeList<Charge> page =
        call(client, Operation.get("/l", new TypeRef<StripeList<Charge>>() {}), null).value();
    assertThat(page.data().get(0).id()).isEqualTo("ch_1");
    assertThat(page.hasMore()).isTrue();
    List<Charge> all =
        call(client, Operation.get("/l", TypeRef.listOf(Charge.class)), null).value();
    assertThat(all).extracting(Charge::id).containsExactly("ch_1", "ch_1");
    Map<String, List<Charge>> nested =
        call(client, Operation.get("/l", TypeRef.mapOf(TypeRef.listOf(Charge.class))), null)
            .value();
    assertThat(nested.get("a").get(0).amount()).isEqualTo(1000);
  }

  @Test
  void anIdentityHeaderWithAnotherValueIsAPayloadMismatchBeforeAnyIo() throws Exception {
    Operation<Map<String, Object>, Charge> op = FORM_CHARGE.withIdentityHeaders("Stripe-Account");
    server.enqueue(charge());
    Map<String, Object> body = Map.of("amount", 1000);
    call(client, op, body, intent("acct_1"));
    assertThatThrownBy(() -> call(client, op, body, intent("acct_2")))
        .isInstanceOf(CallFailedException.class)
        .satisfies(
            e -> assertThat(((CallFailedException) e).reason()).isEqualTo(Reason.INTENT_MISMATCH));
    server.enqueue(charge());
    call(client, op, body, intent("acct_1")); // the same value is the same intent: replayed
    List<RecordedRequest> sent = drain(server);
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1).getHeaders().get("Idempotency-Key"))
        .isEqualTo(sent.get(0).getHeaders().get("Idempotency-Key"));
  }

  @Test
  void withoutDeclaringItAHeaderIsNotPartOfTheIdentity() {
    server.enqueue(charge());
    server.enqueue(charge());
    Map<String, Object> body = Map.of("amount", 1000);
    call(client, FORM_CHARGE, body, intent("acct_1"));
    call(client, FORM_CHARGE, body, intent("acct_2"));
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aClientWideIdentityHeaderAppliesToEveryOperation() {
    try (SafeRetryClient c = builder().identityHeaders("stripe-account").build()) {
      server.enqueue(charge());
      Map<String, Object> body = Map.of("amount", 1000);
      call(c, FORM_CHARGE, body, intent("acct_1"));
      assertThatThrownBy(() -> call(c, FORM_CHARGE, body, intent("acct_2")))
          .isInstanceOf(CallFailedException.class)
          .hasMessageContaining("fingerprint");
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void theQueryIsPartOfTheIntentsIdentity() {
    server.enqueue(charge());
    Map<String, Object> body = Map.of("amount", 1000);
    RequestOptions o = RequestOptions.none().withIntentId("order-9/charge");
    call(client, FORM_CHARGE, body, o.withQuery(QueryParams.of("expand[]", "customer")));
    assertThatThrownBy(
            () ->
                call(client, FORM_CHARGE, body, o.withQuery(QueryParams.of("expand[]", "invoice"))))
        .isInstanceOf(CallFailedException.class)
        .hasMessageContaining("fingerprint");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  private static RequestOptions intent(String account) {
    return RequestOptions.none()
        .withIntentId("order-7/charge")
        .withHeader("Stripe-Account", account);
  }
}
