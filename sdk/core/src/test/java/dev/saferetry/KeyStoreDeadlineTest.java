package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The key store works within the call's deadline: it is told how long it may wait to record the
 * intent and to record the outcome, and the time it takes counts against the deadline, like an
 * attempt's.
 */
class KeyStoreDeadlineTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  private static RequestOptions within(Duration deadline) {
    return RequestOptions.none().withIntentId("order-1/charge").withDeadline(deadline);
  }

  /** A store that records the waits it is allowed and takes {@code slowness} to record a begin. */
  private final class TimedStore extends ForwardingKeyStore {
    final List<Duration> beginWaits = new CopyOnWriteArrayList<>();
    final List<Duration> completeWaits = new CopyOnWriteArrayList<>();
    private final Duration slowness;

    TimedStore(Duration slowness) {
      super(KeyStore.inMemory());
      this.slowness = slowness;
    }

    @Override
    public BeginResult begin(IntentRecord candidate) {
      time.advance(slowness);
      return super.begin(candidate);
    }

    @Override
    public BeginResult begin(IntentRecord candidate, Duration maxWait) {
      beginWaits.add(maxWait);
      return begin(candidate);
    }

    @Override
    public void complete(IntentRecord completed, Duration maxWait) {
      completeWaits.add(maxWait);
      complete(completed);
    }
  }

  @Test
  void theStoreIsToldTheCallsDeadlineAndWhatIsLeftOfItForTheOutcome() {
    TimedStore store = new TimedStore(Duration.ofMillis(700));
    server.enqueue(charge());
    try (SafeRetryClient c = builder().keyStore(store).build()) {
      assertThat(call(c, Charges.CREATE, PARAMS, within(Duration.ofSeconds(3))).status())
          .isEqualTo(200);
    }
    assertThat(store.beginWaits).containsExactly(Duration.ofSeconds(3));
    assertThat(store.completeWaits).containsExactly(Duration.ofMillis(2300));
  }

  @Test
  void aDeadlineBeyondTheEndOfTimeIsNoBound() {
    TimedStore store = new TimedStore(Duration.ZERO);
    server.enqueue(charge());
    Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
    try (SafeRetryClient c = builder().keyStore(store).build()) {
      assertThat(call(c, Charges.CREATE, PARAMS, within(forever)).status()).isEqualTo(200);
    }
    assertThat(store.beginWaits).containsExactly(forever);
    assertThat(store.completeWaits).hasSize(1);
  }

  @Test
  void theTimeTheStoreTakesCountsAgainstTheDeadline() {
    // 2.8 s of a 3 s deadline go to recording the intent: the 0.5 s backoff after a 503 no longer
    // fits, so the call stops after one attempt instead of retrying past its deadline
    TimedStore store = new TimedStore(Duration.ofMillis(2800));
    server.enqueue(json(503, "{}"));
    server.enqueue(charge());
    try (SafeRetryClient c = builder().keyStore(store).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS, within(Duration.ofSeconds(3))))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.DEADLINE_EXCEEDED));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }
}
