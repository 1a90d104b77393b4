package dev.saferetry.examples.payments;

import java.util.Objects;

/**
 * The parameters of a new refund.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param charge the id of the charge to refund
 * @param amount the amount in minor units, positive
 */
public record RefundCreateParams(String charge, long amount) {

  /**
   * Validates the parameters.
   *
   * @param charge the id of the charge to refund
   * @param amount the amount in minor units, positive
   * @throws IllegalArgumentException if the charge id is blank or the amount is not positive
   */
  public RefundCreateParams {
    Objects.requireNonNull(charge, "charge");
    if (charge.isBlank()) {
      throw new IllegalArgumentException("charge must not be blank");
    }
    if (amount <= 0) {
      throw new IllegalArgumentException("amount must be positive, was " + amount);
    }
  }
}
