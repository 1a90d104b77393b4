package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The in-memory and file stores have only the host's clock (the client's): what a clock stepped
 * ahead or behind, by 25 hours or by one second, does to their retention decisions, as their
 * documentation says. Each case starts half a step before the 24 hour retention ends.
 *
 * <ul>
 *   <li>Stepped ahead past the retention: a completed intent is recorded again with a new key on
 *       its next call (a second charge if the server still keeps the first), and a purge drops it;
 *       a pending one is refused as expired (nothing sent).
 *   <li>Stepped behind: a completed intent keeps its key (its answer is replayed) and is not
 *       purged; a pending one is re-sent with its key (it never looks fresher than the latest time
 *       the client saw).
 * </ul>
 */
class HostClockStepTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);
  private static final RequestOptions ORDER_1 = RequestOptions.none().withIntentId("order-1");
  private static final Duration RETENTION = Duration.ofHours(24);

  @TempDir Path dir;

  enum Store {
    MEMORY,
    FILE
  }

  static Stream<Arguments> steps() {
    List<Arguments> out = new ArrayList<>();
    for (Store store : Store.values()) {
      for (Duration step :
          List.of(
              Duration.ofHours(25),
              Duration.ofSeconds(1),
              Duration.ofHours(-25),
              Duration.ofSeconds(-1))) {
        out.add(Arguments.of(store, step));
      }
    }
    return out.stream();
  }

  private KeyStore open(Store store) {
    return store == Store.MEMORY ? KeyStore.inMemory() : FileKeyStore.open(dir);
  }

  private SafeRetryClient client(KeyStore store) {
    return builder()
        .keyStore(store)
        .intentRetention(RETENTION)
        .retryPolicy(RetryPolicy.noRetries())
        .build();
  }

  /** Moves the clock to half a step before the retention ends, then takes the step. */
  private void stepNearTheEndOfTheRetention(Duration step) {
    time.advance(RETENTION.minus(step.abs().dividedBy(2)));
    time.advance(step);
  }

  @ParameterizedTest(name = "{0}, clock stepped {1}")
  @MethodSource("steps")
  void aCompletedIntentIsRecordedAgainOnlyWhenTheHostsClockSaysItExpired(Store kind, Duration step)
      throws Exception {
    try (KeyStore store = open(kind);
        SafeRetryClient c = client(store)) {
      server.enqueue(charge());
      c.execute(Charges.CREATE, PARAMS, ORDER_1);
      stepNearTheEndOfTheRetention(step);
      server.enqueue(charge());
      c.execute(Charges.CREATE, PARAMS, ORDER_1);
      List<String> keys = Answers.keys(Answers.drain(server), "Idempotency-Key");
      assertThat(keys).hasSize(2);
      if (step.isNegative()) {
        assertThat(keys.get(1)).isEqualTo(keys.get(0)); // kept: its answer is replayed
      } else {
        assertThat(keys.get(1)).isNotEqualTo(keys.get(0)); // the documented limit: a new key
      }
    }
  }

  @ParameterizedTest(name = "{0}, clock stepped {1}")
  @MethodSource("steps")
  void aPurgeAtTheHostsClockDropsACompletedIntentOnlyWhenItSaysItExpired(Store kind, Duration step)
      throws Exception {
    try (KeyStore store = open(kind);
        SafeRetryClient c = client(store)) {
      server.enqueue(charge());
      c.execute(Charges.CREATE, PARAMS, ORDER_1);
      stepNearTheEndOfTheRetention(step);
      assertThat(store.purgeExpired(time.instant())).isEqualTo(step.isNegative() ? 0 : 1);
    }
  }

  @ParameterizedTest(name = "{0}, clock stepped {1}")
  @MethodSource("steps")
  void aPendingIntentIsRefusedWhenTheClockSteppedAheadAndReSentWithItsKeyWhenBehind(
      Store kind, Duration step) throws Exception {
    try (KeyStore store = open(kind);
        SafeRetryClient c = client(store)) {
      server.enqueue(status(503)); // the answer is lost: order-1 stays pending
      assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
          .isInstanceOf(OutcomeUnknownException.class);
      stepNearTheEndOfTheRetention(step);
      server.enqueue(charge());
      if (step.isNegative()) {
        c.execute(Charges.CREATE, PARAMS, ORDER_1);
      } else {
        assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
            .isInstanceOfSatisfying(
                OutcomeUnknownException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED));
      }
      List<String> keys = Answers.keys(Answers.drain(server), "Idempotency-Key");
      assertThat(keys).hasSize(step.isNegative() ? 2 : 1).containsOnly(keys.get(0));
    }
  }
}
