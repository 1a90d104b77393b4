package dev.saferetry.soak;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryPolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;

/**
 * A client process of the soak: owns one {@link FileKeyStore} directory and a slice of intent ids.
 * On start it first re-drives the intents its store holds as pending (recovery after a SIGKILL),
 * then creates a charge for every intent of its slice not yet recorded as succeeded, retrying
 * unresolved ones (same intent, same key) until all succeeded. It reports on stdout, one line per
 * event: {@code recovered N}, {@code done ID ATTEMPTS MICROS}, {@code again ID ATTEMPTS OUTCOME},
 * {@code failed ID STATUS}, {@code finished}.
 *
 * <p>Options: {@code --base-url}, {@code --store DIR}, {@code --prefix P}, {@code --from N}, {@code
 * --to N} (exclusive), {@code --threads N}, {@code --read-timeout-ms N}, {@code --store-kind
 * file|memory} (default file; memory is the soak's negative control), {@code --stop-at-epoch-ms T}
 * (the worker halts then; it also halts when its parent process ends).
 */
public final class ChaosWorker {
  private static final PrintStream OUT = System.out;

  private final SafeRetryClient client;
  private final IntentScope scope;
  private final LinkedBlockingDeque<String> queue = new LinkedBlockingDeque<>();
  private final AtomicInteger unresolved = new AtomicInteger();
  private final boolean shared;
  private final Set<String> mine = ConcurrentHashMap.newKeySet();
  private final Set<String> adopted = ConcurrentHashMap.newKeySet();
  private long lastSweep;

  private ChaosWorker(SafeRetryClient client, boolean shared) {
    this.client = client;
    this.shared = shared;
    this.scope = new IntentScope(IntentScope.DEFAULT_TENANT, Charges.CREATE.name());
  }

  /** The charge of an intent: deterministic, so a re-driven intent sends the same payload. */
  static ChargeCreateParams params(String intentId) {
    return new ChargeCreateParams(
        100 + Math.floorMod(intentId.hashCode(), 900), "eur", intentId, null);
  }

  /** Intent number {@code n} of a run. */
  static String intentId(String prefix, int n) {
    return String.format("%s-%06d", prefix, n);
  }

  /** Runs the worker; see the class comment for the options. */
  public static void main(String[] args) throws InterruptedException {
    Map<String, String> o = Options.parse(args);
    // An orphan must not retry forever: end with the coordinator, and at its time cap at the
    // latest.
    ProcessHandle.current()
        .parent()
        .ifPresent(p -> p.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
    long stopAt = Long.parseLong(o.getOrDefault("stop-at-epoch-ms", "" + Long.MAX_VALUE));
    Thread timer =
        new Thread(
            () -> {
              try {
                Thread.sleep(Math.max(0, stopAt - System.currentTimeMillis()));
                Runtime.getRuntime().halt(4);
              } catch (InterruptedException e) {
                // Ended normally.
              }
            },
            "chaos-worker-cap");
    timer.setDaemon(true);
    timer.start();
    Duration readTimeout =
        Duration.ofMillis(Long.parseLong(o.getOrDefault("read-timeout-ms", "300")));
    OkHttpClient http =
        new OkHttpClient.Builder()
            .connectTimeout(Duration.ofSeconds(1))
            .readTimeout(readTimeout)
            .writeTimeout(Duration.ofSeconds(1))
            .build();
    String kind = o.getOrDefault("store-kind", "file");
    SharedStore sharedStore =
        kind.equals("jdbc")
            ? SharedStore.open(o.get("store-url"), Integer.parseInt(o.getOrDefault("threads", "4")))
            : null;
    try (KeyStore store =
            sharedStore != null
                ? sharedStore.store()
                : kind.equals("memory")
                    ? KeyStore.inMemory()
                    : FileKeyStore.open(Path.of(o.get("store")));
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(o.get("base-url"))
                .apiKey("sk_test_chaos")
                .okHttpClient(http)
                .keyStore(store)
                .retryPolicy(
                    RetryPolicy.defaults()
                        .withMaxAttempts(5)
                        .withInitialDelay(Duration.ofMillis(5))
                        .withMaxDelay(Duration.ofMillis(100))
                        .withDeadline(Duration.ofSeconds(5))
                        .withMaxRetryAfter(Duration.ofSeconds(1)))
                .breakerPolicy(
                    BreakerPolicy.defaults()
                        .withFailureRateThreshold(90f)
                        .withWaitInOpenState(Duration.ofMillis(200)))
                .retryBudget(RetryBudgetPolicy.defaults().withCapacity(100).withSuccessCredit(0.5))
                .build()) {
      ChaosWorker worker = new ChaosWorker(client, sharedStore != null);
      worker.plan(o.get("prefix"), Integer.parseInt(o.get("from")), Integer.parseInt(o.get("to")));
      worker.drive(Integer.parseInt(o.getOrDefault("threads", "4")));
    }
    if (sharedStore != null) {
      sharedStore.close();
    }
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
    say("finished");
  }

  /** Queues pending intents first (recovery), then every intent of the slice not yet done. */
  private void plan(String prefix, int from, int to) {
    Set<String> order = new LinkedHashSet<>();
    List<IntentRecord> pending = client.pendingIntents();
    for (IntentRecord r : pending) {
      if (!shared || inSlice(prefix, r.intentId(), from, to)) {
        order.add(r.intentId()); // with a shared store, others' intents are adopted by sweeps
      }
    }
    say("recovered " + pending.size());
    for (int n = from; n < to; n++) {
      String id = intentId(prefix, n);
      Optional<IntentRecord> known = client.keyStore().find(scope, id);
      if (known.isPresent() && known.get().state() == IntentState.SUCCEEDED) {
        say("done " + id + " 0 0"); // completed before a kill; its line may have been lost
      } else {
        order.add(id);
      }
    }
    mine.addAll(order);
    queue.addAll(order);
    unresolved.set(order.size());
  }

  private static boolean inSlice(String prefix, String id, int from, int to) {
    for (int n = from; n < to; n++) {
      if (intentId(prefix, n).equals(id)) {
        return true;
      }
    }
    return false;
  }

  /**
   * With a shared store: adopts the pending intents of other workers that have waited more than a
   * second (their worker was killed, or is slow: re-driving with the same key is harmless). Returns
   * whether the store holds no pending intent at all. At most every 250 ms.
   */
  private synchronized boolean sweep(boolean force) {
    long now = System.currentTimeMillis();
    if (!force && now - lastSweep < 250) {
      return false;
    }
    lastSweep = now;
    List<IntentRecord> pending = client.pendingIntents();
    Instant orphaned = Instant.now().minusSeconds(1);
    for (IntentRecord r : pending) {
      if (r.createdAt().isBefore(orphaned) && mine.add(r.intentId())) {
        adopted.add(r.intentId());
        unresolved.incrementAndGet();
        queue.addFirst(r.intentId());
      }
    }
    return pending.isEmpty();
  }

  private void drive(int threads) throws InterruptedException {
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(this::loop, "chaos-worker-" + t);
      thread.start();
      all.add(thread);
    }
    Thread sweeper = null;
    if (shared) {
      sweeper =
          new Thread(
              () -> {
                while (!Thread.currentThread().isInterrupted()) {
                  sweep(false);
                  try {
                    Thread.sleep(200);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "chaos-worker-sweeper");
      sweeper.setDaemon(true);
      sweeper.start();
    }
    for (Thread thread : all) {
      thread.join();
    }
    if (sweeper != null) {
      sweeper.interrupt();
    }
  }

  private void loop() {
    while (true) {
      if (unresolved.get() == 0) {
        if (!shared || sweep(true)) {
          return; // with a shared store: only once no worker's intent is pending
        }
      }
      String id;
      try {
        id = queue.poll(50, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (id != null && !attempt(id)) {
        queue.addLast(id); // unresolved: the same intent (and key) again later
      }
    }
  }

  /** Makes one call for an intent; returns whether the intent is resolved. */
  private boolean attempt(String id) {
    long start = System.nanoTime();
    try {
      CallResult<Charge> r =
          client.execute(Charges.CREATE, params(id), RequestOptions.none().withIntentId(id));
      long micros = (System.nanoTime() - start) / 1_000;
      say("done " + id + " " + r.attempts().size() + " " + micros);
      if (adopted.contains(id)) {
        say("adopted " + id);
      }
      unresolved.decrementAndGet();
      return true;
    } catch (ApiException | ResponseBodyException e) {
      say("failed " + id + " " + e.attempts().size() + " " + e.reason());
      unresolved.decrementAndGet();
      return true; // a definitive answer: re-sending cannot change it
    } catch (SafeRetryException e) {
      if (e.reason() == Reason.INTENT_MISMATCH) {
        say("failed " + id + " 0 " + e.reason());
        unresolved.decrementAndGet();
        return true; // the intent is recorded with another payload: a bug, not an outage
      }
      say("again " + id + " " + e.attempts().size() + " " + e.outcome());
      return false;
    }
  }

  private static void say(String line) {
    synchronized (OUT) {
      OUT.println(line);
      OUT.flush();
    }
  }
}
