package dev.saferetry;

import static dev.saferetry.AsyncExecutorTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.AsyncExecutorTest.ManualTimer;
import dev.saferetry.call.Outcome;
import dev.saferetry.error.Reason;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.testing.Answers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Cancelling the future of {@code executeAsync} cancels the call: nothing more is sent, the intent
 * stays pending when anything may have been sent, and the next call of the intent reuses its key.
 */
class AsyncCancelTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");
  private static final RequestOptions ORDER = RequestOptions.none().withIntentId("order-7");

  private final List<CallFinished> ends = new CopyOnWriteArrayList<>();
  private final KeyStore store = KeyStore.inMemory();

  private SafeRetryClientBuilder watched() {
    return builder()
        .keyStore(store)
        .listener(
            new SafeRetryListener() {
              @Override
              public void onCallEnd(CallFinished e) {
                ends.add(e);
              }
            });
  }

  @Test
  void cancellingAnAttemptInFlightAbortsItAndTheIntentStaysPending() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            arrived.countDown();
            release.await(30, TimeUnit.SECONDS);
            return Answers.charge();
          }
        });
    try (SafeRetryClient c = watched().build()) {
      CompletableFuture<CallResult<Charge>> call = c.executeAsync(Charges.CREATE, PARAMS, ORDER);
      assertThat(arrived.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(call.cancel(true)).isTrue();
      awaitTrue(() -> ends.size() == 1);
      release.countDown();

      assertThat(call.isCancelled()).isTrue();
      CallFinished end = ends.get(0);
      assertThat(end.outcome()).isEqualTo(Outcome.UNKNOWN);
      assertThat(end.reason()).isEqualTo(Reason.CANCELLED_AFTER_SEND);
      assertThat(end.attempts()).isEqualTo(1);
      assertThat(server.getRequestCount()).isEqualTo(1);
      List<IntentRecord> pending = c.pendingIntents();
      assertThat(pending).extracting(IntentRecord::intentId).containsExactly("order-7");

      server.setDispatcher(new mockwebserver3.QueueDispatcher());
      server.enqueue(Answers.charge());
      CallResult<Charge> again = c.execute(Charges.CREATE, PARAMS, ORDER);
      assertThat(again.key()).isEqualTo(pending.get(0).key());
      assertThat(server.takeRequest().getHeaders().get("Idempotency-Key"))
          .isEqualTo(pending.get(0).key().value());
    }
  }

  @Test
  void cancellingAWaitForTheNextAttemptSendsNothingMore() throws Exception {
    server.enqueue(Answers.status(503));
    ManualTimer timer = new ManualTimer();
    try (SafeRetryClient c = watched().sleeper(timer).build()) {
      CompletableFuture<CallResult<Charge>> call = c.executeAsync(Charges.CREATE, PARAMS, ORDER);
      awaitTrue(() -> timer.waits.size() == 1);

      call.cancel(false);
      awaitTrue(() -> ends.size() == 1);

      assertThat(timer.waits.get(0).isCancelled()).isTrue();
      assertThat(ends.get(0).reason()).isEqualTo(Reason.CANCELLED_AFTER_SEND);
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(c.pendingIntents()).extracting(IntentRecord::intentId).containsExactly("order-7");
    }
  }

  @Test
  void aCallCancelledBeforeItRanSentNothingAndFailed() throws Exception {
    List<Runnable> held = new ArrayList<>();
    try (SafeRetryClient c = watched().asyncExecutor(held::add).build()) {
      CompletableFuture<CallResult<Charge>> call = c.executeAsync(Charges.CREATE, PARAMS, ORDER);
      call.cancel(false);
      held.remove(0).run(); // the executor gets to it after the cancellation

      assertThat(call.isCancelled()).isTrue();
      assertThat(ends).hasSize(1);
      assertThat(ends.get(0).outcome()).isEqualTo(Outcome.FAILED);
      assertThat(ends.get(0).reason()).isEqualTo(Reason.CANCELLED);
      assertThat(ends.get(0).attempts()).isZero();
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aClosedClientsAsyncCallEndsAtOnce() {
    SafeRetryClient c = watched().build();
    c.close();
    CompletableFuture<CallResult<Charge>> call = c.executeAsync(Charges.CREATE, PARAMS, ORDER);
    assertThat(call).isCompletedExceptionally();
    assertThat(ends).hasSize(1);
    assertThat(ends.get(0).reason()).isEqualTo(Reason.CANCELLED);
    assertThat(server.getRequestCount()).isZero();
  }
}
