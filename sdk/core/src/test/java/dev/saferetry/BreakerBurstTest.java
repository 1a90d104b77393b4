package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.dropAfterRequest;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The breaker with its defaults: a burst of lost answers against a healthy server is retried (it
 * proves nothing about the server's health); a dead server still opens it fast. Fake time: no
 * waiting.
 */
class BreakerBurstTest extends ClientFixture {
  private static final int CALLS = 50;
  private static final int LOST = 15;
  private static final int MINIMUM = BreakerPolicy.defaults().minimumCalls();

  private SafeRetryClientBuilder withDefaultBreaker() {
    return builder().breakerPolicy(BreakerPolicy.defaults());
  }

  private static RequestOptions intent(int i) {
    return RequestOptions.none().withIntentId("order-" + i + "/charge");
  }

  @Test
  void aBurstOfLostAnswersAtTheStartIsRetriedAndTheBreakerStaysClosed() throws Exception {
    CountDownLatch lostSeen = new CountDownLatch(LOST);
    AtomicInteger dropped = new AtomicInteger();
    Set<String> firstAttempts = ConcurrentHashMap.newKeySet();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            // The first attempts of 15 charges: 15 charges lose their answer, each once.
            boolean first = firstAttempts.add(request.getHeaders().get("Idempotency-Key"));
            if (first && dropped.incrementAndGet() <= LOST) {
              return dropAfterRequest(); // committed, answer lost
            }
            // Answer only once the client has seen every lost answer: the worst order.
            lostSeen.await(10, TimeUnit.SECONDS);
            return charge();
          }
        });
    SafeRetryListener countLost =
        new SafeRetryListener() {
          @Override
          public void onAttemptEnd(AttemptFinished e) {
            if (e.attempt().failure() != null) {
              lostSeen.countDown();
            }
          }
        };
    ExecutorService pool = Executors.newFixedThreadPool(CALLS);
    List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
    try (SafeRetryClient c = withDefaultBreaker().listener(countLost).asyncExecutor(pool).build()) {
      for (int i = 0; i < CALLS; i++) {
        futures.add(
            c.executeAsync(Charges.CREATE, ChargeCreateParams.of(100 + i, "eur"), intent(i)));
      }
      List<Throwable> failures = new ArrayList<>();
      int attempts = 0;
      for (CompletableFuture<CallResult<Charge>> f : futures) {
        try {
          attempts += f.get(30, TimeUnit.SECONDS).attempts().size();
        } catch (java.util.concurrent.ExecutionException e) {
          failures.add(e.getCause());
        }
      }
      assertThat(failures).isEmpty();
      assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
      assertThat(c.pendingIntents()).isEmpty();
      assertThat(attempts).isEqualTo(CALLS + LOST);
      assertThat(server.getRequestCount()).isEqualTo(CALLS + LOST);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void refusedConnectionsOpenItAfterTheMinimumNumberOfAttempts() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: connections are refused
    }
    try (SafeRetryClient c =
        withDefaultBreaker().baseUrl("http://127.0.0.1:" + port + "/").build()) {
      assertThat(attemptsUntilOpen(c)).isEqualTo(MINIMUM);
      assertFailsFastWithoutIo(c);
    }
  }

  @Test
  void nothingBut503OpensItAfterTheMinimumNumberOfAttempts() {
    for (int i = 0; i < 4 * MINIMUM; i++) {
      server.enqueue(status(503));
    }
    try (SafeRetryClient c = withDefaultBreaker().build()) {
      assertThat(attemptsUntilOpen(c)).isEqualTo(MINIMUM);
      assertThat(server.getRequestCount()).isEqualTo(MINIMUM);
      assertFailsFastWithoutIo(c);
    }
    assertThat(server.getRequestCount()).isEqualTo(MINIMUM);
  }

  @Test
  void aServerThatSwallowsEveryRequestOpensItOnceCallsEndWithoutAnswer() {
    for (int i = 0; i < 8 * MINIMUM; i++) {
      server.enqueue(dropAfterRequest());
    }
    int calls = 0;
    try (SafeRetryClient c = withDefaultBreaker().build()) {
      while (c.circuitBreaker().getState() == CircuitBreaker.State.CLOSED && calls < 4 * MINIMUM) {
        int n = calls++;
        assertThatThrownBy(
                () -> c.execute(Charges.CREATE, ChargeCreateParams.of(1, "eur"), intent(n)))
            .isInstanceOfSatisfying(
                SafeRetryException.class, e -> assertThat(e.isOutcomeUnknown()).isTrue());
      }
      assertThat(calls).isEqualTo(MINIMUM);
      int sent = server.getRequestCount();
      assertFailsFastWithoutIo(c);
      assertThat(server.getRequestCount()).isEqualTo(sent);
    }
  }

  /** Sequential calls until the breaker opens; returns the attempts they made. */
  private static int attemptsUntilOpen(SafeRetryClient c) {
    int attempts = 0;
    for (int i = 0;
        i < 4 * MINIMUM && c.circuitBreaker().getState() == CircuitBreaker.State.CLOSED;
        i++) {
      try {
        c.execute(Charges.CREATE, ChargeCreateParams.of(1, "eur"), intent(i));
      } catch (SafeRetryException e) {
        attempts += e.attempts().size();
      }
    }
    assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
    return attempts;
  }

  private static void assertFailsFastWithoutIo(SafeRetryClient c) {
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(() -> c.execute(Charges.CREATE, ChargeCreateParams.of(1, "eur")))
          .isInstanceOfSatisfying(
              CallFailedException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.CIRCUIT_OPEN);
                assertThat(e.attempts()).isEmpty();
              });
    }
  }
}
