package dev.saferetry.adyen.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.resilience.BreakerPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The generated Adyen Checkout client on the wire (MockWebServer): every write carries the intent's
 * key in the {@code Idempotency-Key} header Adyen's document declares, a retry re-sends the same
 * key and the same bytes, and reads carry none.
 */
class AdyenCheckoutClientTest {
  private static final String PSP = "QFQTPCQ8HXSKGK82";
  private final List<Duration> waits = new ArrayList<>();
  private final MockWebServer server = new MockWebServer();
  private SafeRetryClient client;
  private AdyenCheckoutClient adyen;

  @BeforeEach
  void start() throws Exception {
    server.start();
    client =
        SafeRetryClient.builder()
            .preset(ProviderPreset.adyen())
            .baseUrl(server.url("/v71").toString())
            .apiKey("AQE_test_key")
            .sleeper(waits::add) // no test waits for real
            .breakerPolicy(BreakerPolicy.disabled())
            .build();
    adyen = new AdyenCheckoutClient(client);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
  }

  private void answer(int status, String json) {
    server.enqueue(
        new MockResponse.Builder()
            .code(status)
            .addHeader("Content-Type", "application/json")
            .body(json)
            .build());
  }

  private static PaymentRequest payment() {
    return PaymentRequest.builder()
        .merchantAccount("TestMerchant")
        .reference("order-1")
        .amount(Amount.builder().currency("EUR").value(1000L).build())
        .returnUrl("https://shop.example/return")
        .paymentMethod(
            CardDetails.builder()
                .type(CardDetails.Type.SCHEME)
                .encryptedCardNumber("test_4111111111111111")
                .encryptedSecurityCode("test_737")
                .build())
        .putExtra("futureField", "kept") // a field the client does not type: sent
        .build();
  }

  @Test
  void aPaymentCarriesTheIntentKeyInTheIdempotencyKeyHeader() throws Exception {
    answer(200, "{\"pspReference\":\"" + PSP + "\",\"resultCode\":\"Authorised\"}");

    CallResult<PaymentResponse> paid =
        adyen.payments().create(payment(), RequestOptions.none().withIntentId("order-1/pay"));

    RecordedRequest request = server.takeRequest();
    assertThat(request.getTarget()).isEqualTo("/v71/payments");
    assertThat(request.getHeaders().get("Idempotency-Key")).isEqualTo(paid.key().value());
    assertThat(request.getBody().utf8())
        .contains("\"type\":\"scheme\"", "\"futureField\":\"kept\"");
    assertThat(paid.value().pspReference()).isEqualTo(PSP);
  }

  @Test
  void aRetryAfterA503ResendsTheSameKeyAndTheSameBytes() throws Exception {
    answer(503, "{\"status\":503,\"errorCode\":\"000\",\"errorType\":\"internal\"}");
    answer(200, "{\"pspReference\":\"" + PSP + "\",\"resultCode\":\"Authorised\"}");

    CallResult<PaymentResponse> paid =
        adyen.payments().create(payment(), RequestOptions.none().withIntentId("order-2/pay"));

    RecordedRequest first = server.takeRequest();
    RecordedRequest second = server.takeRequest();
    assertThat(paid.attempts()).hasSize(2);
    assertThat(second.getHeaders().get("Idempotency-Key"))
        .isEqualTo(first.getHeaders().get("Idempotency-Key"))
        .isEqualTo(paid.key().value());
    assertThat(second.getBody()).isEqualTo(first.getBody());
  }

  @Test
  void everyModificationOfAPaymentCarriesItsOwnKeyAndReadsCarryNone() throws Exception {
    String ok =
        "{\"pspReference\":\"X\",\"paymentPspReference\":\""
            + PSP
            + "\","
            + "\"status\":\"received\",\"merchantAccount\":\"TestMerchant\"}";
    for (int i = 0; i < 4; i++) {
      answer(201, ok);
    }
    answer(200, "{\"id\":\"CS1\",\"status\":\"completed\"}");
    Amount amount = Amount.builder().currency("EUR").value(1000L).build();
    List<CallResult<?>> writes = new ArrayList<>();
    writes.add(
        adyen
            .modifications()
            .captures(
                PSP,
                PaymentCaptureRequest.builder()
                    .merchantAccount("TestMerchant")
                    .amount(amount)
                    .build(),
                RequestOptions.none().withIntentId("order-3/capture")));
    writes.add(
        adyen
            .modifications()
            .refunds(
                PSP,
                PaymentRefundRequest.builder()
                    .merchantAccount("TestMerchant")
                    .amount(Amount.builder().currency("EUR").value(500L).build())
                    .build(),
                RequestOptions.none().withIntentId("order-3/refund")));
    writes.add(
        adyen
            .modifications()
            .cancels(
                PSP,
                PaymentCancelRequest.builder().merchantAccount("TestMerchant").build(),
                RequestOptions.none().withIntentId("order-3/cancel")));
    writes.add(
        adyen
            .modifications()
            .reversals(
                PSP,
                PaymentReversalRequest.builder().merchantAccount("TestMerchant").build(),
                RequestOptions.none().withIntentId("order-3/reversal")));
    adyen.payments().retrieve("CS1", null, RequestOptions.none());

    List<String> paths = List.of("captures", "refunds", "cancels", "reversals");
    for (int i = 0; i < 4; i++) {
      RecordedRequest request = server.takeRequest();
      assertThat(request.getTarget()).isEqualTo("/v71/payments/" + PSP + "/" + paths.get(i));
      assertThat(request.getHeaders().get("Idempotency-Key"))
          .isEqualTo(writes.get(i).key().value());
    }
    RecordedRequest read = server.takeRequest();
    assertThat(read.getMethod()).isEqualTo("GET");
    assertThat(read.getHeaders().get("Idempotency-Key")).isNull();
    assertThat(writes).extracting(w -> w.key().value()).doesNotHaveDuplicates();
  }
}
