package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.dropAfterRequest;
import static dev.saferetry.testing.Answers.json;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.saferetry.call.Attempt;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.examples.payments.Refund;
import dev.saferetry.examples.payments.RefundCreateParams;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.testing.Answers;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.RecordedRequest;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class TypedApiTest extends ClientFixture {
  @Test
  void chargesCreateMapsTheRecordBothWaysAndIgnoresUnknownFields() throws Exception {
    server.enqueue(charge());
    CallResult<Charge> result =
        new PaymentsClient(client)
            .charges()
            .create(new ChargeCreateParams(1000, "EUR", "order 1", "cus_9"));

    Charge c = result.value();
    assertThat(c.id()).isEqualTo("ch_1");
    assertThat(c.amount()).isEqualTo(1000);
    assertThat(c.currency()).isEqualTo("eur");
    assertThat(c.amountRefunded()).isZero();
    String body = drain(server).get(0).getBody().utf8();
    assertThat(new ObjectMapper().readTree(body))
        .isEqualTo(
            new ObjectMapper()
                .readTree(
                    "{\"amount\":1000,\"currency\":\"eur\",\"description\":\"order 1\","
                        + "\"customer\":\"cus_9\"}"));
  }

  @Test
  void refundsCreate() throws Exception {
    server.enqueue(
        json(
            201,
            "{\"id\":\"re_1\",\"object\":\"refund\",\"charge\":\"ch_1\","
                + "\"amount\":300,\"status\":\"succeeded\"}"));
    CallResult<Refund> r =
        new PaymentsClient(client).refunds().create(new RefundCreateParams("ch_1", 300));
    assertThat(r.value().amount()).isEqualTo(300);
    assertThat(r.status()).isEqualTo(201);
    assertThat(drain(server).get(0).getUrl().encodedPath()).isEqualTo("/v1/refunds");
  }

  @Test
  void moneyAndParamsAreValidatedBeforeAnyIo() {
    assertThatThrownBy(() -> new ChargeCreateParams(0, "eur", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("amount");
    assertThatThrownBy(() -> new ChargeCreateParams(10, "euro", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("currency");
    assertThatThrownBy(
            () ->
                client.execute(
                    Operation.get("/v1/charges/{id}", Charge.class), null, RequestOptions.none()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void asyncCallsHaveTheSameSemantics() throws Exception {
    server.enqueue(status(503));
    server.enqueue(charge());
    CompletableFuture<CallResult<Charge>> future =
        new PaymentsClient(client)
            .charges()
            .createAsync(ChargeCreateParams.of(5, "eur"), RequestOptions.none());
    CallResult<Charge> result = future.get();
    assertThat(result.attempts()).hasSize(2);
    assertThat(Answers.keys(drain(server), "Idempotency-Key")).containsOnly(result.key().value());

    for (int i = 0; i < 4; i++) {
      server.enqueue(status(500));
    }
    CompletableFuture<CallResult<Charge>> failing =
        new PaymentsClient(client)
            .charges()
            .createAsync(ChargeCreateParams.of(5, "eur"), RequestOptions.none());
    assertThatThrownBy(failing::join)
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void callersOkHttpClientKeepsItsInterceptorsAndLosesItsSilentRetry() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    OkHttpClient own =
        new OkHttpClient.Builder()
            .addInterceptor(
                chain -> {
                  seen.incrementAndGet();
                  return chain.proceed(
                      chain.request().newBuilder().header("X-Caller", "yes").build());
                })
            .build();
    assertThat(own.retryOnConnectionFailure()).isTrue();

    // The caller's client on its own: a pooled connection whose answer is lost after the server
    // read the request is re-sent silently: one call, two deliveries of the request.
    Request post =
        new Request.Builder()
            .url(server.url("/v1/charges"))
            .post(RequestBody.create("{}", MediaType.get("application/json")))
            .build();
    server.enqueue(charge());
    server.enqueue(dropAfterRequest());
    server.enqueue(charge());
    for (int call = 0; call < 2; call++) {
      try (Response r = own.newCall(post).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }
    assertThat(drain(server)).hasSize(3);

    // Through the SDK, the same fault is an attempt the SDK sees, records and retries itself.
    seen.set(0);
    server.enqueue(charge());
    server.enqueue(dropAfterRequest());
    server.enqueue(charge());
    CallResult<Charge> result;
    try (SafeRetryClient c = builder().okHttpClient(own).build()) {
      c.execute(dev.saferetry.examples.payments.Charges.CREATE, ChargeCreateParams.of(1, "eur"));
      server.takeRequest(); // the first call, priming the pooled connection
      result =
          c.execute(
              dev.saferetry.examples.payments.Charges.CREATE, ChargeCreateParams.of(1, "eur"));
    }
    List<RecordedRequest> requests = List.of(server.takeRequest(), server.takeRequest());
    assertThat(server.getRequestCount()).isEqualTo(3 + 3);
    assertThat(result.attempts()).hasSize(2);
    assertThat(result.attempts().get(0).failure()).isEqualTo(TransportFailure.UNEXPECTED_EOF);
    assertThat(requests)
        .extracting(r -> r.getHeaders().get("X-Request-Id"))
        .containsExactlyElementsOf(result.attempts().stream().map(Attempt::requestId).toList());
    assertThat(seen).hasValue(3);
    assertThat(requests)
        .extracting(r -> r.getHeaders().get("X-Caller"))
        .containsExactly("yes", "yes");
    assertThat(own.retryOnConnectionFailure()).isTrue(); // the caller's own client is untouched
    own.connectionPool().evictAll();
  }

  @Test
  void callersObjectMapperIsUsed() throws Exception {
    record Payment(long amountMinor, String currencyCode) {}
    ObjectMapper snake =
        new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    server.enqueue(json(200, "{\"amount_minor\":7,\"currency_code\":\"eur\",\"extra\":1}"));
    try (SafeRetryClient c = builder().objectMapper(snake).build()) {
      CallResult<Payment> r =
          c.execute(
              Operation.post("/v1/payments", Payment.class, Payment.class), new Payment(7, "eur"));
      assertThat(r.value()).isEqualTo(new Payment(7, "eur"));
    }
    assertThat(drain(server).get(0).getBody().utf8()).contains("\"amount_minor\":7");
  }

  @Test
  void oneClientServesManyThreads() throws Exception {
    int n = 16;
    for (int i = 0; i < n; i++) {
      server.enqueue(charge());
    }
    PaymentsClient payments = new PaymentsClient(client);
    List<CompletableFuture<CallResult<Charge>>> futures = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      futures.add(
          payments
              .charges()
              .createAsync(
                  ChargeCreateParams.of(i + 1, "eur"),
                  RequestOptions.none().withIntentId("order-" + i)));
    }
    List<String> keys = futures.stream().map(f -> f.join().key().value()).toList();
    assertThat(keys).doesNotHaveDuplicates().hasSize(n);
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .containsExactlyInAnyOrderElementsOf(keys);
  }
}
