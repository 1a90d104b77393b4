package dev.saferetry.examples.checkout;

import dev.saferetry.Operation;

/** The payment provider's API as the checkout uses it: one operation and its two records. */
public final class PaymentsApi {
  private PaymentsApi() {}

  /**
   * A charge to create.
   *
   * @param amount minor units
   * @param currency three-letter code
   * @param description the order it pays for
   */
  public record ChargeRequest(long amount, String currency, String description) {}

  /**
   * A charge as the provider answers it.
   *
   * @param id the provider's id
   * @param amount minor units
   * @param currency three-letter code
   * @param status the provider's status
   */
  public record Charge(String id, long amount, String currency, String status) {}

  /** Creates a charge: the relay sends it with the idempotency key recorded with the order. */
  public static final Operation<ChargeRequest, Charge> CREATE_CHARGE =
      Operation.post("/v1/charges", ChargeRequest.class, Charge.class);
}
