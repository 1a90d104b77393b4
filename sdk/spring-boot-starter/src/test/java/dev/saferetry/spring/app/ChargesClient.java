package dev.saferetry.spring.app;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import java.util.Map;

/** A typed client facade as the generator makes them: a public constructor taking the client. */
public final class ChargesClient {
  private final SafeRetryClient client;

  /**
   * Wraps {@code client}.
   *
   * @param client the client
   */
  public ChargesClient(SafeRetryClient client) {
    this.client = client;
  }

  /** Creates a charge. */
  @SuppressWarnings("rawtypes")
  public CallResult<Map> create(long amount, String order) {
    return client.execute(
        Orders.CHARGE, Map.of("amount", amount, "order", order), RequestOptions.none());
  }

  /** {@return the client underneath} */
  public SafeRetryClient client() {
    return client;
  }
}
