package dev.saferetry.examples.payments;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Locale;
import java.util.Objects;

/**
 * The parameters of a new charge. Money is an amount in minor units plus a currency, never a
 * floating-point number.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param amount the amount in minor units, positive
 * @param currency a three-letter ISO 4217 code; stored lower case
 * @param description a description, or null
 * @param customer a customer id, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChargeCreateParams(
    long amount, String currency, String description, String customer) {

  /**
   * Validates the parameters.
   *
   * @param amount the amount in minor units, positive
   * @param currency a three-letter ISO 4217 code; stored lower case
   * @param description a description, or null
   * @param customer a customer id, or null
   * @throws IllegalArgumentException if the amount is not positive or the currency is not three
   *     letters
   */
  public ChargeCreateParams {
    if (amount <= 0) {
      throw new IllegalArgumentException("amount must be positive, was " + amount);
    }
    Objects.requireNonNull(currency, "currency");
    if (!isThreeLetters(currency)) {
      throw new IllegalArgumentException("currency must be a three-letter ISO 4217 code");
    }
    currency = currency.toLowerCase(Locale.ROOT);
  }

  /**
   * Returns parameters with only amount and currency.
   *
   * @param amount the amount
   * @param currency the currency
   * @return parameters with only amount and currency
   */
  public static ChargeCreateParams of(long amount, String currency) {
    return new ChargeCreateParams(amount, currency, null, null);
  }

  private static boolean isThreeLetters(String code) {
    if (code.length() != 3) {
      return false;
    }
    for (int i = 0; i < 3; i++) {
      char c = code.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
        return false;
      }
    }
    return true;
  }
}
