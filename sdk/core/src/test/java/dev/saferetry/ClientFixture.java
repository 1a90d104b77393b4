package dev.saferetry;

import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;
import java.util.concurrent.CompletionException;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A MockWebServer on loopback and a client with fake time and fixed jitter, and {@link #call}: the
 * path under test, {@code execute} or {@code executeAsync}, so that one test proves both.
 */
abstract class ClientFixture {
  /** The two ways to run a call: on the calling thread, or asynchronously and joined. */
  public enum Via {
    SYNC,
    ASYNC
  }

  protected MockWebServer server;
  protected FakeTime time;
  protected SafeRetryClient client;

  @BeforeEach
  void startServer() throws Exception {
    server = new MockWebServer();
    server.start(0);
    time = new FakeTime();
    client = builder().build();
  }

  @AfterEach
  void stopServer() {
    client.close();
    server.close();
  }

  /** The path this test drives; classes parameterised over {@link Via} override it. */
  protected Via via() {
    return Via.SYNC;
  }

  /** Runs a call on {@link #via()}; an asynchronous failure is thrown as {@code execute} would. */
  protected <Q, R> CallResult<R> call(
      SafeRetryClient c, Operation<Q, R> op, Q body, RequestOptions options) {
    if (via() == Via.SYNC) {
      return c.execute(op, body, options);
    }
    try {
      return c.executeAsync(op, body, options).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Runs a call without options on {@link #via()}. */
  protected <Q, R> CallResult<R> call(SafeRetryClient c, Operation<Q, R> op, Q body) {
    return call(c, op, body, RequestOptions.none());
  }

  /** A builder with fake time, jitter fixed at 0.5 and the breaker off. */
  protected SafeRetryClientBuilder builder() {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .breakerPolicy(BreakerPolicy.disabled());
  }
}
