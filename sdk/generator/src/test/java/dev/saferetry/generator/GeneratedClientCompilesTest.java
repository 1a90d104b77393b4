package dev.saferetry.generator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GeneratedClientCompilesTest {
  @Test
  void stripeExcerptCompilesWithoutWarnings() throws Exception {
    GeneratedSources sources =
        Generator.generate(
            Specs.config("stripe-charges.yaml", "com.example.stripe").preset("stripe").build());
    try (Compiled c = Compiled.compile(sources, Compiled.workDir("stripe-compiles"))) {
      assertThat(c.type("com.example.stripe.StripeApiClient")).isNotNull();
    }
  }

  @Test
  void adyenExcerptCompilesWithoutWarnings() throws Exception {
    GeneratedSources sources =
        Generator.generate(Specs.config("adyen-checkout.yaml", "com.example.adyen").build());
    try (Compiled c = Compiled.compile(sources, Compiled.workDir("adyen-compiles"))) {
      assertThat(c.type("com.example.adyen.AdyenCheckoutApiClient")).isNotNull();
    }
  }

  @Test
  void squareExcerptCompilesWithoutWarnings() throws Exception {
    GeneratedSources sources =
        Generator.generate(Specs.config("square-payments.yaml", "com.example.square").build());
    try (Compiled c = Compiled.compile(sources, Compiled.workDir("square-compiles"))) {
      assertThat(c.type("com.example.square.SquareClient")).isNotNull();
    }
  }
}
