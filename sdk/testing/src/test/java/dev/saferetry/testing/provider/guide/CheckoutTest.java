package dev.saferetry.testing.provider.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.FakeProviderExtension;
import dev.saferetry.testing.provider.Fault;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(FakeProviderExtension.class) // strict: a duplicate charge fails the test
class CheckoutTest {
  record ChargeParams(long amount, String currency, String description) {}

  record Charge(String id, long amount, String status) {}

  static final Operation<ChargeParams, Charge> CREATE_CHARGE =
      Operation.post("/v1/charges", ChargeParams.class, Charge.class);

  FakeProvider provider; // a fresh provider for each test
  SafeRetryClient client;

  @BeforeEach
  void connect() {
    client =
        SafeRetryClient.builder()
            .baseUrl(provider.baseUrl())
            .apiKey("sk_test_123")
            .retryPolicy(RetryPolicy.defaults().withInitialDelay(Duration.ZERO)) // no waiting
            .build();
  }

  @AfterEach
  void close() {
    client.close();
  }

  CallResult<Charge> chargeOrder123() {
    return client.execute(
        CREATE_CHARGE,
        new ChargeParams(1999, "eur", "order 123"),
        RequestOptions.none().withIntentId("order-123/charge"));
  }

  @Test
  void aLostAnswerIsReplayedOnTheRetry() {
    provider.arm(Fault.loseAnswer()); // the charge is made, then the answer is lost

    CallResult<Charge> charge = chargeOrder123();

    assertTrue(charge.replayed()); // the retry got the stored answer
    assertEquals(1, provider.effects().size()); // one charge
    provider.assertOneKeyPerIntent(); // both attempts carried the same key
  }

  @Test
  void aServerErrorAfterCommitMakesOneCharge() {
    provider.arm(Fault.failAfterCommit(500).on("POST /v1/charges"));

    assertEquals("succeeded", chargeOrder123().value().status());
    assertEquals(1, provider.effectsPerOperation().get("POST /v1/charges"));
  }

  @Test
  void aRateLimitIsWaitedOut() {
    provider.arm(Fault.rateLimit(Duration.ZERO).times(2)); // 429, Retry-After: 0, twice

    assertEquals(3, chargeOrder123().attempts().size());
    assertEquals(1, provider.effects().size());
  }
}
