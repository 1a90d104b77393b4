package dev.saferetry.generatorit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.generatorit.stripe.Charge;
import dev.saferetry.generatorit.stripe.ChargesCreateRequest;
import dev.saferetry.generatorit.stripe.StripeClient;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class StripeExcerptTest {
  @Test
  void generatedCreateChargeSendsAFormWithTheKeyHeader() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(
          new MockResponse.Builder()
              .code(200)
              .addHeader("Content-Type", "application/json")
              .body(
                  "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":500,\"status\":\"succeeded\",\"created\":1700000000}")
              .build());
      try (SafeRetryClient client =
          SafeRetryClient.builder()
              .preset(ProviderPreset.stripe())
              .baseUrl(server.url("/").toString())
              .apiKey("sk_test_x")
              .build()) {
        StripeClient stripe = new StripeClient(client);
        CallResult<Charge> r =
            stripe
                .charges()
                .create(
                    ChargesCreateRequest.builder().amount(500L).currency("usd").build(),
                    RequestOptions.none().withIntentId("order-1"));
        assertThat(r.value().id()).isEqualTo("ch_1");
        RecordedRequest req = server.takeRequest();
        assertThat(req.getHeaders().get("Idempotency-Key")).isNotBlank();
        assertThat(req.getBody().utf8()).isEqualTo("amount=500&currency=usd");
      }
    }
  }
}
