package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.CallResult;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.OkHttpClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The relay's own thread survives what a send, a reconciler or an observer throws, an {@link Error}
 * too; a thread that ended is reported and can be started again; an interrupt ends it at once,
 * without a claim spent on an intent it did not send.
 */
class OutboxRelayThreadTest {
  private static final IntentScope SCOPE = new IntentScope("default", Charges.CREATE.name());

  @ParameterizedTest
  @EnumSource(Db.class)
  void anErrorInASendLeavesTheIntentLeasedNotFailedAndTheNextPassSendsIt(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          AtomicBoolean first = new AtomicBoolean(true);
          OkHttpClient throwing =
              new OkHttpClient.Builder()
                  .addInterceptor(
                      chain -> {
                        if (first.getAndSet(false)) {
                          throw new AssertionError("a bug in an interceptor");
                        }
                        return chain.proceed(chain.request());
                      })
                  .build();
          try (SafeRetryClient buggy = client.newBuilder().okHttpClient(throwing).build()) {
            enqueue(database, store, buggy, time, true, 1);
            OutboxRelay relay = relay(store, buggy, time).build();

            RelayPass pass = relay.runOnce(); // the Error does not escape the pass
            assertThat(pass.claimed()).isEqualTo(1);
            assertThat(pass.lost()).isEqualTo(1);
            assertThat(store.find(SCOPE, "order-1").orElseThrow().state())
                .isEqualTo(IntentState.PENDING);
            assertThat(RelayRows.text(database, "order-1", "lease_owner")).isEqualTo("relay-a");
            assertThat(JdbcOutbox.of(store).held()).isEmpty();

            elapse(database, time, Duration.ofSeconds(61)); // its lease ends
            server.enqueue(charge());
            assertThat(relay.runOnce().succeeded()).isEqualTo(1);
            assertThat(drain(server)).hasSize(1);
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anErrorInAReconcilerOrAnObserverDoesNotStopThePassesSending(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          OutboxHeldBacklogTest.hold(database, store, client, time, 1);
          enqueue(database, store, client, time, true, 1);
          OutboxRelay relay =
              relay(store, client, time)
                  .reconciler(
                      Charges.CREATE,
                      (intent, c) -> {
                        throw new AssertionError("a bug in a reconciler");
                      })
                  .build();
          relay.observe(
              new RelayObserver() {
                @Override
                public void answered(CallResult<?> result, SafeRetryException error) {
                  throw new AssertionError("a bug in an observer");
                }
              });
          server.enqueue(charge());
          RelayPass pass = relay.runOnce();
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(store.find(SCOPE, "order-1").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aThreadThatEndedIsReportedAndStartsAgain(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          AtomicReference<Thread> relayThread = new AtomicReference<>();
          CountDownLatch secondRun = new CountDownLatch(1);
          AtomicBoolean first = new AtomicBoolean(true);
          OutboxRelay relay =
              relay(store, client, time)
                  .sleeper(
                      d -> {
                        if (first.getAndSet(false)) {
                          relayThread.set(Thread.currentThread());
                          throw new AssertionError("a broken sleeper");
                        }
                        secondRun.countDown();
                        new CountDownLatch(1).await(); // until stop() interrupts it
                      })
                  .build();
          List<Throwable> reported = new CopyOnWriteArrayList<>();
          relay.observe(
              new RelayObserver() {
                @Override
                public void ended(Throwable why) {
                  reported.add(why);
                }
              });

          relay.start();
          awaitSet(relayThread).join();
          assertThat(relay.isRunning()).isFalse();
          assertThat(relay.endedBy()).get().isInstanceOf(AssertionError.class);
          assertThat(reported).singleElement().isInstanceOf(AssertionError.class);

          relay.start(); // not "the relay is running": it runs again
          secondRun.await();
          assertThat(relay.isRunning()).isTrue();
          assertThat(relay.endedBy()).isEmpty();
          relay.stop();
          assertThat(relay.isRunning()).isFalse();
          assertThat(relay.endedBy()).isEmpty(); // a stop is not an ending to report
          assertThat(reported).hasSize(1);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anInterruptEndsTheThreadAtOnceWithoutSpendingAClaimPerIntent(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2, 3);
          server.enqueue(charge());
          server.enqueue(charge());
          server.enqueue(charge());
          AtomicReference<Thread> relayThread = new AtomicReference<>();
          OutboxRelay relay = relay(store, client, time).build();
          relay.observe(
              new RelayObserver() {
                @Override
                public void answered(CallResult<?> result, SafeRetryException error) {
                  if (relayThread.compareAndSet(null, Thread.currentThread())) {
                    Thread.currentThread().interrupt(); // as a shutdown hook or an executor would
                  }
                }
              });

          relay.start();
          awaitSet(relayThread).join();
          assertThat(relay.isRunning()).isFalse();
          assertThat(relay.endedBy()).get().isInstanceOf(InterruptedException.class);
          assertThat(drain(server)).hasSize(1);
          assertThat(store.find(SCOPE, "order-1").orElseThrow().state())
              .isEqualTo(IntentState.SUCCEEDED);
          for (String id : new String[] {"order-2", "order-3"}) {
            assertThat(RelayRows.text(database, id, "attempts")).isEqualTo("0");
            assertThat(RelayRows.text(database, id, "relay_state")).isEqualTo("0");
            assertThat(RelayRows.text(database, id, "lease_owner")).isNull();
          }
          RelayPass next = relay(store, client, time).build().runOnce();
          assertThat(next.succeeded()).isEqualTo(2);
        });
  }

  /** The thread set by the relay's own thread, once it is set (the test's bounded wait). */
  private static Thread awaitSet(AtomicReference<Thread> ref) {
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (ref.get() == null) {
      if (System.nanoTime() > end) {
        throw new AssertionError("the relay's thread never got there");
      }
      Thread.onSpinWait();
    }
    return ref.get();
  }
}
