package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.stripe.ChargesCreateRequest;
import dev.saferetry.stripe.StripeClient;
import dev.saferetry.testing.FakeTime;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Received;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StripePagination} against a fake Stripe: every page is read, and no read carries a key.
 */
class StripePaginationTest {
  @Test
  void fiveChargesAreListedOnThreePagesAndNoReadCarriesAKey() {
    FakeTime time = new FakeTime();
    try (FakeProvider fake = FakeProvider.builder().dialect(Dialect.STRIPE).start();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .preset(ProviderPreset.stripe())
                .baseUrl(fake.baseUrl())
                .apiKey("sk_test_pagination")
                .clock(time)
                .sleeper(time)
                .build()) {
      for (int i = 1; i <= 5; i++) {
        new StripeClient(client)
            .charges()
            .create(
                ChargesCreateRequest.builder()
                    .amount(100L)
                    .currency("eur")
                    .source("tok_visa")
                    .build(),
                RequestOptions.none().withIntentId("seed-" + i));
      }
      int seeded = fake.received().size();

      assertThat(StripePagination.run(client)).isEqualTo("5 charges on 3 pages");

      List<Received> reads = fake.received().subList(seeded, fake.received().size());
      assertThat(reads).allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
      assertThat(reads).allSatisfy(r -> assertThat(r.key()).as("a GET carries no key").isNull());
      assertThat(reads.stream().filter(r -> r.path().equals("/v1/charges"))).hasSize(3);
      assertThat(reads.stream().filter(r -> r.path().startsWith("/v1/charges/ch_"))).hasSize(1);
    }
  }

  @Test
  void theMainRunsAgainstItsOwnFakeByDefault() {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      StripePagination.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("5 charges on 3 pages")
        .containsPattern("retrieved ch_\\S+, key null");
  }
}
