package dev.saferetry.examples.payments;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import java.util.concurrent.CompletableFuture;

/**
 * Charges: {@code POST /v1/charges} and {@code GET /v1/charges/{id}}.
 *
 * <p>This class is thread-safe.
 */
public final class Charges {
  /** Creates a charge. */
  public static final Operation<ChargeCreateParams, Charge> CREATE =
      Operation.post("/v1/charges", ChargeCreateParams.class, Charge.class);

  /** Reads a charge. */
  public static final Operation<Void, Charge> RETRIEVE =
      Operation.get("/v1/charges/{id}", Charge.class);

  private final SafeRetryClient client;

  Charges(SafeRetryClient client) {
    this.client = client;
  }

  /**
   * Creates a charge; see {@link SafeRetryClient#execute} for retries and errors.
   *
   * @param params what to create
   * @param options the intent id or key; {@link RequestOptions#none()} for a one-off intent
   * @return the charge, with the key and every attempt
   */
  public CallResult<Charge> create(ChargeCreateParams params, RequestOptions options) {
    return client.execute(CREATE, params, options);
  }

  /**
   * Creates a charge as its own intent with a fresh key.
   *
   * @param params what to create
   * @return the charge, with the key and every attempt
   */
  public CallResult<Charge> create(ChargeCreateParams params) {
    return create(params, RequestOptions.none());
  }

  /**
   * Creates a charge asynchronously, with the same semantics as {@link #create}.
   *
   * @param params what to create
   * @param options the options
   * @return the future charge
   */
  public CompletableFuture<CallResult<Charge>> createAsync(
      ChargeCreateParams params, RequestOptions options) {
    return client.executeAsync(CREATE, params, options);
  }

  /**
   * Reads a charge by id. GETs carry no idempotency key.
   *
   * @param id the id
   * @return the charge
   */
  public CallResult<Charge> retrieve(String id) {
    return client.execute(RETRIEVE, null, RequestOptions.none().withPathParam("id", id));
  }
}
