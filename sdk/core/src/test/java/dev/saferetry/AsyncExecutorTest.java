package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import dev.saferetry.testing.Answers;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * {@code executeAsync} never holds a thread per waiting call: a bounded number of calls run their
 * I/O at once (virtual threads on JDK 21 and newer), the others wait in FIFO order, and waits
 * between attempts run on a timer.
 */
class AsyncExecutorTest extends ClientFixture {
  private static final int CALLS = 2_000;
  private static final int BOUND = 32;

  /** Holds every request until released, and remembers how many were held at once. */
  static final class SlowServer extends Dispatcher {
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

  /** A sleeper whose asynchronous waits end only when the test says so. */
  static final class ManualTimer implements Sleeper {
    final List<CompletableFuture<Void>> waits = new CopyOnWriteArrayList<>();

    @Override
    public void sleep(Duration delay) {
      throw new AssertionError("the asynchronous path never sleeps on a thread");
    }

    @Override
    public CompletableFuture<Void> after(Duration delay) {
      CompletableFuture<Void> wait = new CompletableFuture<>();
      waits.add(wait);
      return wait;
    }

    void fireAll() {
      waits.forEach(w -> w.complete(null));
    }
  }

  static boolean isVirtual(Thread t) {
    try {
      return (Boolean) Thread.class.getMethod("isVirtual").invoke(t);
    } catch (ReflectiveOperationException e) {
      return false; // before JDK 21
    }
  }

  /** Spins until {@code condition} holds, failing after 30 s. */
  static void awaitTrue(java.util.function.BooleanSupplier condition) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - end).as("waited 30 s").isNegative();
      java.util.concurrent.locks.LockSupport.parkNanos(50_000); // poll, do not spin a core
    }
  }

  private static long platformThreadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(prefix))
        .count();
  }

  @Test
  void twoThousandInFlightCallsRunABoundedNumberAtOnceAndAllComplete() throws Exception {
    SlowServer slow = new SlowServer(BOUND);
    server.setDispatcher(slow);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long startedBefore = threads.getTotalStartedThreadCount();
    List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
    try (SafeRetryClient c =
        builder()
            .name("bounded")
            .asyncConcurrency(BOUND)
            .retryPolicy(RetryPolicy.noRetries())
            .build()) {
      for (int i = 0; i < CALLS; i++) {
        futures.add(c.executeAsync(Charges.CREATE, ChargeCreateParams.of(i + 1, "eur")));
      }
      assertThat(slow.firstArrivals.await(30, TimeUnit.SECONDS)).isTrue();
      long poolThreads = platformThreadsNamed("bounded-async-");
      slow.release.countDown();
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

      assertThat(slow.maxInFlight.get()).isEqualTo(BOUND);
      assertThat(futures).allMatch(f -> f.join().status() == 200);
      assertThat(server.getRequestCount()).isEqualTo(CALLS);
      // JDK 17: a pool of 32 platform threads; JDK 21 and newer: virtual threads, none of these.
      assertThat(poolThreads).isEqualTo(Runtime.version().feature() >= 21 ? 0 : BOUND);
      assertThat(poolThreads).isLessThanOrEqualTo(BOUND);
      // The client's threads, the server's connection threads and some slack: never one per call.
      assertThat(threads.getTotalStartedThreadCount() - startedBefore).isLessThan(3L * BOUND + 64);
    }
  }

  @Test
  void theNumberOfCallsRunningAtOnceCanBeChosen() throws Exception {
    SlowServer slow = new SlowServer(3);
    server.setDispatcher(slow);
    List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
    try (SafeRetryClient c = builder().asyncConcurrency(3).build()) {
      for (int i = 0; i < 20; i++) {
        futures.add(c.executeAsync(Charges.CREATE, ChargeCreateParams.of(i + 1, "eur")));
      }
      assertThat(slow.firstArrivals.await(30, TimeUnit.SECONDS)).isTrue();
      slow.release.countDown();
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }
    assertThat(slow.maxInFlight.get()).isEqualTo(3);
    assertThat(server.getRequestCount()).isEqualTo(20);
  }

  @Test
  void callsWaitingToRetryHoldNoThreadAndResumeWhenTheirWaitEnds() throws Exception {
    int calls = 200;
    for (int i = 0; i < calls; i++) {
      server.enqueue(Answers.status(503));
    }
    for (int i = 0; i < calls; i++) {
      server.enqueue(Answers.charge());
    }
    ManualTimer timer = new ManualTimer();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>();
    try (SafeRetryClient c =
        builder()
            .sleeper(timer)
            .retryBudget(RetryBudgetPolicy.unlimited())
            .asyncExecutor(
                task ->
                    new Thread(
                            () -> {
                              maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                              try {
                                task.run();
                              } finally {
                                running.decrementAndGet();
                              }
                            })
                        .start())
            .build()) {
      for (int i = 0; i < calls; i++) {
        futures.add(c.executeAsync(Charges.CREATE, ChargeCreateParams.of(i + 1, "eur")));
      }
      // Every call got its 503 and waits to retry, and not one task holds a thread for it: were a
      // wait to hold its thread, this would never be true.
      awaitTrue(() -> timer.waits.size() == calls && running.get() == 0);
      assertThat(futures).noneMatch(CompletableFuture::isDone);
      timer.fireAll();
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }
    assertThat(futures).allMatch(f -> f.join().attempts().size() == 2);
    assertThat(server.getRequestCount()).isEqualTo(2 * calls);
  }

  @Test
  void attemptsRunOnVirtualThreadsOnJdk21AndOnTheClientsPoolBefore() throws Exception {
    List<Thread> seen = new CopyOnWriteArrayList<>();
    server.enqueue(Answers.charge());
    try (SafeRetryClient c =
        builder()
            .name("where")
            .listener(
                new SafeRetryListener() {
                  @Override
                  public void onAttemptStart(AttemptStarted e) {
                    seen.add(Thread.currentThread());
                  }
                })
            .build()) {
      c.executeAsync(Charges.CREATE, ChargeCreateParams.of(1, "eur")).get(30, TimeUnit.SECONDS);
    }
    Thread t = seen.get(0);
    if (Runtime.version().feature() >= 21) {
      assertThat(isVirtual(t)).as("a virtual thread").isTrue();
    } else {
      assertThat(t.getName()).startsWith("where-async-");
    }
  }
}
