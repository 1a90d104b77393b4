package dev.saferetry.provider;

import dev.saferetry.internal.ServerIds;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the charge an intent created must be: the values its request carried. Every field is
 * compared exactly with the charge found.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param amount the amount in the currency's minor unit, as the request sent it; positive
 * @param currency the three-letter ISO currency code; stored lower case, as Stripe answers it
 * @param account the {@code Stripe-Account} the request was sent with (a connected account), or
 *     {@code null} when the request set none of its own
 * @param context the {@code Stripe-Context} the request was sent with, or {@code null} when the
 *     request set none of its own
 */
record ExpectedCharge(long amount, String currency, String account, String context) {

  /**
   * Validates the expectation.
   *
   * @throws IllegalArgumentException if the amount is not positive, the currency is not three ASCII
   *     letters, or the account or context is not 1..255 visible ASCII characters
   */
  ExpectedCharge {
    if (amount <= 0) {
      throw new IllegalArgumentException("amount must be positive, was " + amount);
    }
    Objects.requireNonNull(currency, "currency");
    if (!currency.matches("[A-Za-z]{3}")) {
      throw new IllegalArgumentException("currency must be three ASCII letters");
    }
    currency = currency.toLowerCase(Locale.ROOT);
    checkScope("account", account);
    checkScope("context", context);
  }

  /** The headers that scope the search as the request was scoped. */
  Map<String, String> scope() {
    Map<String, String> headers = new LinkedHashMap<>();
    if (account != null) {
      headers.put("Stripe-Account", account);
    }
    if (context != null) {
      headers.put("Stripe-Context", context);
    }
    return headers;
  }

  private static void checkScope(String name, String value) {
    if (value != null && !ServerIds.isUsable(value)) {
      throw new IllegalArgumentException(name + " must be 1..255 visible ASCII characters");
    }
  }
}
