package dev.saferetry.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.provider.StripeReconciler.ExpectedCharge;
import org.junit.jupiter.api.Test;

/**
 * What a Stripe reconciliation expects is checked when it is stated: a positive amount, three
 * letters of currency (kept lower case, as Stripe answers), and an account or context that can go
 * into a header as it is.
 */
class ExpectedChargeTest {
  static final ExpectedCharge EUR_10 = ExpectedCharge.of(1000, "EUR");

  @Test
  void anExpectationIsValidatedAndNormalised() {
    assertThat(ExpectedCharge.of(1000, "EUR").currency()).isEqualTo("eur");
    assertThat(ExpectedCharge.of(Long.MAX_VALUE, "usd").amount()).isEqualTo(Long.MAX_VALUE);
    assertThat(ExpectedCharge.of(1, "usd").onAccount(null).account()).isNull();
    for (long amount : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThatThrownBy(() -> ExpectedCharge.of(amount, "eur"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("amount");
    }
    for (String currency : new String[] {"eu", "euro", "e1r", "\u0435ur", "eur\n", ""}) {
      assertThatThrownBy(() -> ExpectedCharge.of(1000, currency))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("currency");
    }
    assertThatThrownBy(() -> ExpectedCharge.of(1000, null))
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
    assertThatThrownBy(() -> StripeReconciler.charges("intent id", r -> EUR_10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StripeReconciler.charges("intent_id", null))
        .isInstanceOf(NullPointerException.class);
  }
}
