package dev.saferetry.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.CallResult;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The generated Stripe client against saferetry-testing's fake provider in Stripe's wire format:
 * the key in {@code Idempotency-Key} on every write (Stripe's document declares none; the preset
 * says every POST), the same key across retries, one charge after a lost answer, lists over every
 * page with expand, and a payment intent created, confirmed and captured once each.
 */
class StripeClientTest {
  private final List<Duration> waits = new ArrayList<>();
  private FakeProvider fake;
  private SafeRetryClient client;
  private StripeClient stripe;

  @BeforeEach
  void start() {
    fake = FakeProvider.builder().dialect(Dialect.STRIPE).start();
    client =
        SafeRetryClient.builder()
            .preset(ProviderPreset.stripe())
            .baseUrl(fake.baseUrl())
            .apiKey("sk_test_stripe")
            .sleeper(waits::add) // no test waits for real
            .breakerPolicy(BreakerPolicy.disabled())
            .build();
    stripe = new StripeClient(client);
  }

  @AfterEach
  void stop() {
    client.close();
    fake.close();
  }

  private CallResult<Customer> customer(String intent) {
    return stripe
        .customers()
        .create(
            CustomersCreateRequest.builder().email(intent + "@example.com").build(),
            RequestOptions.none().withIntentId(intent));
  }

  private CallResult<Charge> charge(String customer, String intent) {
    return stripe
        .charges()
        .create(
            ChargesCreateRequest.builder()
                .amount(2000L)
                .currency("eur")
                .customer(customer)
                .source("tok_visa")
                .metadata(Map.of("order_id", intent))
                .build(),
            RequestOptions.none().withIntentId(intent));
  }

  @Test
  void everyWriteCarriesTheIntentKeyInIdempotencyKeyAndReadsCarryNone() {
    CallResult<Customer> customer = customer("cus-1");
    CallResult<Charge> charge = charge(customer.value().id(), "order-1/charge");
    stripe.charges().retrieve(charge.value().id(), null, RequestOptions.none());

    List<Received> received = fake.received();
    assertThat(received).extracting(Received::method).containsExactly("POST", "POST", "GET");
    assertThat(received.get(0).key()).isEqualTo(customer.key().value());
    assertThat(received.get(1).key()).isEqualTo(charge.key().value());
    assertThat(received.get(2).key()).isNull();
    assertThat(received.get(1).parameters()).containsEntry("amount", "2000");
  }

  @Test
  void aLostAnswerIsRetriedWithTheSameKeyAndChargesOnce() {
    String customer = customer("cus-2").value().id();
    fake.arm(Fault.loseAnswer().on("POST /v1/charges"));

    CallResult<Charge> charge = charge(customer, "order-2/charge");

    assertThat(charge.attempts()).hasSize(2);
    assertThat(charge.replayed()).isTrue();
    List<Received> charges =
        fake.received().stream().filter(r -> r.path().equals("/v1/charges")).toList();
    assertThat(charges).hasSize(2).extracting(Received::key).containsOnly(charge.key().value());
    assertThat(fake.effectsPerOperation()).containsEntry("POST /v1/charges", 1);
  }

  @Test
  void listAllWalksEveryPageWithTheCustomerExpanded() {
    String customer = customer("cus-3").value().id();
    for (int i = 0; i < 5; i++) {
      charge(customer, "order-3/charge-" + i);
    }

    List<Charge> all = new ArrayList<>();
    stripe
        .charges()
        .listAll(
            ChargesListQuery.builder().limit(2L).expand(List.of("data.customer")).build(),
            RequestOptions.none())
        .forEach(all::add);

    assertThat(all).hasSize(5).extracting(Charge::id).doesNotHaveDuplicates();
    List<Received> pages = fake.received().stream().filter(r -> r.method().equals("GET")).toList();
    assertThat(pages).hasSize(3);
    // customer is anyOf(id, customer, deleted_customer): typed as Object, expanded it is the object
    assertThat(all)
        .allSatisfy(
            c ->
                assertThat(c.customer())
                    .isInstanceOfSatisfying(
                        Map.class,
                        m ->
                            assertThat(m)
                                .containsEntry("id", customer)
                                .containsEntry("object", "customer")));
    assertThat(pages.get(0).parameters()).containsKey("expand");
  }

  @Test
  void aPaymentIntentIsCreatedConfirmedAndCapturedOnceEach() {
    CallResult<PaymentIntent> created =
        stripe
            .paymentIntents()
            .create(
                PaymentIntentsCreateRequest.builder()
                    .amount(5000L)
                    .currency("eur")
                    .captureMethod(PaymentIntentsCreateRequest.CaptureMethod.MANUAL)
                    .build(),
                RequestOptions.none().withIntentId("order-4/intent"));
    String id = created.value().id();
    fake.arm(Fault.failAfterCommit(500).on("POST /v1/payment_intents/{id}/confirm"));
    stripe
        .paymentIntents()
        .confirm(
            id,
            PaymentIntentsConfirmRequest.builder().paymentMethod("pm_card_visa").build(),
            RequestOptions.none().withIntentId("order-4/confirm"));
    CallResult<PaymentIntent> captured =
        stripe
            .paymentIntents()
            .capture(
                id,
                PaymentIntentsCaptureRequest.builder().build(),
                RequestOptions.none().withIntentId("order-4/capture"));

    assertThat(captured.value().status().value()).isEqualTo("succeeded");
    fake.assertOneEffectPerKey();
    assertThat(fake.effects()).hasSize(3);
  }
}
