package dev.saferetry;

import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A MockWebServer on loopback and a client with fake time and fixed jitter. */
public abstract class ClientFixture {
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
