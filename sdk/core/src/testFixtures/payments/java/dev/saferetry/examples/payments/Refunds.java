package dev.saferetry.examples.payments;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;

/**
 * Refunds: {@code POST /v1/refunds}.
 *
 * <p>This class is thread-safe.
 */
public final class Refunds {
  /** Creates a refund. */
  public static final Operation<RefundCreateParams, Refund> CREATE =
      Operation.post("/v1/refunds", RefundCreateParams.class, Refund.class);

  private final SafeRetryClient client;

  Refunds(SafeRetryClient client) {
    this.client = client;
  }

  /**
   * Creates a refund; see {@link SafeRetryClient#execute} for retries and errors.
   *
   * @param params what to create
   * @param options the options
   * @return the refund, with the key and every attempt
   */
  public CallResult<Refund> create(RefundCreateParams params, RequestOptions options) {
    return client.execute(CREATE, params, options);
  }

  /**
   * Creates a refund as its own intent with a fresh key.
   *
   * @param params what to create
   * @return the refund, with the key and every attempt
   */
  public CallResult<Refund> create(RefundCreateParams params) {
    return create(params, RequestOptions.none());
  }
}
