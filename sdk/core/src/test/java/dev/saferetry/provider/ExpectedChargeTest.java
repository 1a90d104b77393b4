package dev.saferetry.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What a Stripe reconciliation expects is checked when it is stated: a positive amount, three
 * letters of currency (kept lower case, as Stripe answers), and an account or context that can go
 * into a header as it is.
 */
class ExpectedChargeTest {
  static final StripeReconciler EUR_10 = StripeReconciler.charge("intent_id", 1000, "EUR");

  @Test
  void anExpectationIsValidatedAndNormalised() {
    assertThat(new ExpectedCharge(1000, "EUR", null, null).currency()).isEqualTo("eur");
    assertThat(new ExpectedCharge(Long.MAX_VALUE, "usd", null, null).amount())
        .isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> StripeReconciler.charge("intent_id", 1, "usd").onAccount(null))
        .isInstanceOf(NullPointerException.class);
    for (long amount : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThatThrownBy(() -> StripeReconciler.charge("intent_id", amount, "eur"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("amount");
    }
    for (String currency : new String[] {"eu", "euro", "e1r", "\u0435ur", "eur\n", ""}) {
      assertThatThrownBy(() -> StripeReconciler.charge("intent_id", 1000, currency))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("currency");
    }
    assertThatThrownBy(() -> StripeReconciler.charge("intent_id", 1000, null))
        .isInstanceOf(NullPointerException.class);
    for (String account :
        new String[] {
          "", "acct 1", "acct_1\r\nX-Injected: 1", "acct_\u00e9", "a".repeat(256), "\uD800"
        }) {
      assertThatThrownBy(() -> EUR_10.onAccount(account))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("account")
          .hasMessageNotContaining("Injected");
      assertThatThrownBy(() -> EUR_10.inContext(account))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("context");
    }
    for (String key : new String[] {"intent id", "", "k".repeat(41), "\uD800", "id\n"}) {
      assertThatThrownBy(() -> StripeReconciler.charge(key, 1000, "eur"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("metadataKey");
    }
    assertThatThrownBy(() -> StripeReconciler.charge(null, 1000, "eur"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> StripeReconciler.charges(null))
        .isInstanceOf(NullPointerException.class);
  }
}
