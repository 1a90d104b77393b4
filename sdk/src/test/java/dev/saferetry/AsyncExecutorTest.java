package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.Charges;
import dev.saferetry.resilience.RetryPolicy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** {@code executeAsync} never creates threads without bound: excess calls wait their turn. */
class AsyncExecutorTest extends ClientFixture {
  private static final int CALLS = 2_000;

  /** Holds every request until released, and remembers how many were held at once. */
  private static final class SlowServer extends Dispatcher {
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch firstArrivals;
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();

    SlowServer(int first) {
      firstArrivals = new CountDownLatch(first);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      firstArrivals.countDown();
      release.await(30, TimeUnit.SECONDS);
      inFlight.decrementAndGet();
      return Answers.charge();
    }
  }

  private static long asyncThreads(String clientName) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(clientName + "-async-"))
        .count();
  }

  @Test
  void twoThousandInFlightCallsUseABoundedPoolAndAllComplete() throws Exception {
    int bound = SafeRetryClientBuilder.DEFAULT_ASYNC_THREADS;
    SlowServer slow = new SlowServer(bound);
    server.setDispatcher(slow);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int before = threads.getThreadCount();
    threads.resetPeakThreadCount();
    List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
    try (SafeRetryClient c =
        builder().name("bounded").retryPolicy(RetryPolicy.noRetries()).build()) {
      for (int i = 0; i < CALLS; i++) {
        futures.add(c.executeAsync(Charges.CREATE, ChargeCreateParams.of(i + 1, "eur"), null));
      }
      assertThat(slow.firstArrivals.await(30, TimeUnit.SECONDS)).isTrue();
      long whileBlocked = asyncThreads("bounded");
      slow.release.countDown();
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

      assertThat(whileBlocked).isEqualTo(bound);
      assertThat(slow.maxInFlight.get()).isLessThanOrEqualTo(bound);
      assertThat(futures).allMatch(f -> f.join().status() == 200);
      assertThat(server.getRequestCount()).isEqualTo(CALLS);
      // Client threads, the server's connection threads and a little slack; never one per call.
      assertThat(threads.getPeakThreadCount() - before).isLessThan(2 * bound + 64);
      assertThat(asyncThreads("bounded")).isLessThanOrEqualTo(bound);
    }
  }

  @Test
  void theNumberOfAsyncThreadsCanBeChosen() throws Exception {
    SlowServer slow = new SlowServer(3);
    server.setDispatcher(slow);
    List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
    try (SafeRetryClient c = builder().name("three").asyncThreads(3).build()) {
      for (int i = 0; i < 20; i++) {
        futures.add(c.executeAsync(Charges.CREATE, ChargeCreateParams.of(i + 1, "eur"), null));
      }
      assertThat(slow.firstArrivals.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(asyncThreads("three")).isEqualTo(3);
      slow.release.countDown();
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }
    assertThat(slow.maxInFlight.get()).isEqualTo(3);
    assertThat(server.getRequestCount()).isEqualTo(20);
  }
}
