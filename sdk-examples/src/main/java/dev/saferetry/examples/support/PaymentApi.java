package dev.saferetry.examples.support;

import dev.saferetry.examples.support.stripe.StripeShapedServer;
import java.time.Duration;

/**
 * The payment API an example runs against when none is given: the in-process {@link
 * StripeShapedServer}, with what the examples ask of it. Plumbing, not an example to copy.
 *
 * <p>Thread-safe.
 */
public final class PaymentApi implements AutoCloseable {
  private final StripeShapedServer server = StripeShapedServer.start();

  /** Starts the API on a free loopback port. */
  public PaymentApi() {}

  /** Returns the base URL. */
  public String baseUrl() {
    return server.baseUrl();
  }

  /**
   * Holds the next request that reaches an endpoint until the returned action runs; waits at most
   * {@code timeout} for such a request and answers whether one arrived.
   */
  public HeldRequest holdNext() {
    StripeShapedServer.Hold hold = server.holdNextExecution();
    return new HeldRequest() {
      @Override
      public boolean await(Duration timeout) throws InterruptedException {
        return hold.awaitHeld(timeout);
      }

      @Override
      public void release() {
        hold.release();
      }
    };
  }

  /** A request held inside the API. */
  public interface HeldRequest {
    /** Waits for the request to arrive; false if none did within {@code timeout}. */
    boolean await(Duration timeout) throws InterruptedException;

    /** Lets it continue: the API carries it out and answers (if anyone still listens). */
    void release();
  }

  /** Returns the number of charges the API made. */
  public long chargesCreated() {
    return server.chargesCreated();
  }

  @Override
  public void close() {
    server.close();
  }
}
