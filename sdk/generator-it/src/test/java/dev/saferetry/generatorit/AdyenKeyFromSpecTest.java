package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.generatorit.adyen.AdyenCheckoutApiClient;
import dev.saferetry.generatorit.adyen.Amount;
import dev.saferetry.generatorit.adyen.CardDetails;
import dev.saferetry.generatorit.adyen.CheckoutRedirectAction;
import dev.saferetry.generatorit.adyen.PaymentCaptureRequest;
import dev.saferetry.generatorit.adyen.PaymentRequest;
import dev.saferetry.generatorit.adyen.PaymentResponse;
import dev.saferetry.idempotency.KeyStore;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Adyen's Checkout document (3.1) declares its Idempotency-Key header on every write and states its
 * 64-character limit in prose: the generated client needs no preset for either.
 */
class AdyenKeyFromSpecTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static PaymentRequest payment() {
    return PaymentRequest.builder()
        .amount(Amount.builder().currency("EUR").value(1000L).build())
        .merchantAccount("AcmeCOM")
        .reference("order-7")
        .returnUrl("https://shop.example/return")
        .paymentMethod(
            CardDetails.builder()
                .type(CardDetails.Type.SCHEME)
                .encryptedCardNumber("adyenjs_0_1_25$abc")
                .build())
        .build();
  }

  @Test
  void everyAttemptCarriesTheIntentsKeyInTheDeclaredHeader() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      server.enqueue(Wire.json(500, "{\"status\":500,\"errorCode\":\"905\"}"));
      server.enqueue(Wire.json(200, "{\"pspReference\":\"PSP1\",\"resultCode\":\"Authorised\"}"));
      CallResult<PaymentResponse> r =
          new AdyenCheckoutApiClient(client)
              .payments()
              .create(payment(), RequestOptions.none().withIntentId("order-7"));
      RecordedRequest first = server.takeRequest();
      RecordedRequest second = server.takeRequest();
      assertThat(first.getHeaders().get("Idempotency-Key"))
          .isEqualTo(second.getHeaders().get("Idempotency-Key"))
          .isEqualTo(r.key().value());
      assertThat(MAPPER.readTree(first.getBody().utf8()))
          .isEqualTo(
              MAPPER.readTree(
                  "{\"amount\":{\"currency\":\"EUR\",\"value\":1000},\"merchantAccount\":\"AcmeCOM\","
                      + "\"paymentMethod\":{\"encryptedCardNumber\":\"adyenjs_0_1_25$abc\",\"type\":\"scheme\"},"
                      + "\"reference\":\"order-7\",\"returnUrl\":\"https://shop.example/return\"}"));
      assertThat(r.value().resultCode()).isEqualTo(PaymentResponse.ResultCode.AUTHORISED);
    }
  }

  @Test
  void aKeyOverTheStatedLimitIsRefusedBeforeAnythingIsSent() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      RequestOptions tooLong = RequestOptions.none().withIdempotencyKey("k".repeat(65));
      assertThatThrownBy(
              () -> new AdyenCheckoutApiClient(client).payments().create(payment(), tooLong))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("64");
      new AdyenCheckoutApiClient(client).modifications();
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void aSubResourceWriteCarriesItsPathAndKey() throws Exception {
    try (MockWebServer server = Wire.started();
        SafeRetryClient client = Wire.client(server, KeyStore.inMemory()).build()) {
      server.enqueue(
          Wire.json(
              201,
              "{\"pspReference\":\"CAP1\",\"paymentPspReference\":\"PSP1\",\"status\":\"received\","
                  + "\"merchantAccount\":\"AcmeCOM\",\"amount\":{\"currency\":\"EUR\",\"value\":1000}}"));
      new AdyenCheckoutApiClient(client)
          .modifications()
          .captures(
              "PSP1",
              PaymentCaptureRequest.builder()
                  .merchantAccount("AcmeCOM")
                  .amount(Amount.builder().currency("EUR").value(1000L).build())
                  .build(),
              RequestOptions.none());
      RecordedRequest r = server.takeRequest();
      assertThat(r.getTarget()).isEqualTo("/payments/PSP1/captures");
      assertThat(r.getHeaders().get("Idempotency-Key")).isNotBlank();
    }
  }

  @Test
  void actionsAreToldApartByTypeAndAnUnknownTypeIsKept() throws Exception {
    PaymentResponse redirect =
        MAPPER.readValue(
            "{\"resultCode\":\"RedirectShopper\",\"action\":{\"type\":\"redirect\",\"method\":\"GET\","
                + "\"url\":\"https://test.adyen.com/hpp\"}}",
            PaymentResponse.class);
    assertThat(redirect.action()).isInstanceOf(CheckoutRedirectAction.class);
    PaymentResponse future =
        MAPPER.readValue(
            "{\"resultCode\":\"Pending\",\"action\":{\"type\":\"wechatpaySDK\",\"sdkData\":{\"a\":\"b\"}}}",
            PaymentResponse.class);
    assertThat(future.action()).isInstanceOf(PaymentResponse.Action.Unknown.class);
    assertThat(((PaymentResponse.Action.Unknown) future.action()).fields())
        .containsEntry("type", "wechatpaySDK");
  }
}
