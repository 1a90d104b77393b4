package dev.saferetry.examples.payments;

import dev.saferetry.SafeRetryClient;
import java.util.Objects;

/**
 * A small typed payments API — charges and refunds — built on a {@link SafeRetryClient}. Every
 * create is idempotent: one key per intent, reused on every retry.
 *
 * <pre>{@code
 * PaymentsClient payments = new PaymentsClient(client);
 * CallResult<Charge> charge = payments.charges().create(
 *     new ChargeCreateParams(1999, "eur", "order 123", null),
 *     RequestOptions.none().withIntentId("order-123/charge"));
 * }</pre>
 *
 * <p>This class is thread-safe.
 */
public final class PaymentsClient {
  private final Charges charges;
  private final Refunds refunds;

  /**
   * Creates the API on a client.
   *
   * @param client the client
   */
  public PaymentsClient(SafeRetryClient client) {
    Objects.requireNonNull(client, "client");
    this.charges = new Charges(client);
    this.refunds = new Refunds(client);
  }

  /**
   * Returns the charges API.
   *
   * @return the charges API
   */
  public Charges charges() {
    return charges;
  }

  /**
   * Returns the refunds API.
   *
   * @return the refunds API
   */
  public Refunds refunds() {
    return refunds;
  }
}
