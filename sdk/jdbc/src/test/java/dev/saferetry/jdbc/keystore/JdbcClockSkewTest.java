package dev.saferetry.jdbc.keystore;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two instances on one table whose clocks disagree: the one whose clock runs behind judges a
 * pending intent's expiry by the database's clock, as the other would, and does not re-send it.
 */
class JdbcClockSkewTest {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);
  private static final RequestOptions ORDER_1 = RequestOptions.none().withIntentId("order-1");

  @ParameterizedTest
  @EnumSource(Db.class)
  void anInstanceWhoseClockRunsBehindDoesNotResendAnIntentExpiredByTheDatabasesClock(Db db)
      throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      Instant now = Instant.now(); // the database's clock, on this machine
      try (JdbcKeyStore storeA = database.builder().build();
          SafeRetryClient a = client(server, at(now), storeA)) {
        server.enqueue(status(503)); // the answer is lost: order-1 stays pending
        assertThatThrownBy(() -> a.execute(Charges.CREATE, PARAMS, ORDER_1))
            .isInstanceOf(OutcomeUnknownException.class);
      }
      // That was three hours ago by the database's clock; it expired an hour later, two hours ago.
      JdbcRetentionClockSkewTest.age(database, Duration.ofHours(3));

      FakeTime behind = at(now.minus(Duration.ofMinutes(150))); // a clock 2.5 hours behind
      server.enqueue(charge());
      try (JdbcKeyStore storeB =
              JdbcKeyStore.builder()
                  .dataSource(database.newPool(2))
                  .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                  .schema(database.schema)
                  .build();
          SafeRetryClient b = client(server, behind, storeB)) {
        assertThatThrownBy(() -> b.execute(Charges.CREATE, PARAMS, ORDER_1))
            .isInstanceOfSatisfying(
                OutcomeUnknownException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED));
        assertThat(storeB.expiryTime(behind.instant())).isAfterOrEqualTo(now);
      }
      assertThat(server.getRequestCount()).isEqualTo(1); // the stale key was never sent again
    }
  }

  private static FakeTime at(Instant instant) {
    FakeTime time = new FakeTime();
    time.advance(Duration.between(time.instant(), instant));
    return time;
  }

  private static SafeRetryClient client(MockWebServer server, FakeTime time, JdbcKeyStore store) {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .keyStore(store)
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .retryPolicy(RetryPolicy.noRetries())
        .intentRetention(Duration.ofHours(1))
        .breakerPolicy(BreakerPolicy.disabled())
        .build();
  }
}
