package dev.saferetry.examples.chaos;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.FailedReason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.harness.Options;
import dev.saferetry.idempotency.FileKeyStore;
import dev.saferetry.idempotency.InMemoryKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryPolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

  private ChaosWorker(SafeRetryClient client) {
    this.client = client;
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
    try (KeyStore store =
            "memory".equals(o.get("store-kind"))
                ? new InMemoryKeyStore()
                : FileKeyStore.open(Path.of(o.get("store")));
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(o.get("base-url"))
                .apiKey("sk_test_chaos")
                .okHttpClient(http)
                .keyStore(store)
                .retryPolicy(
                    RetryPolicy.builder()
                        .maxAttempts(5)
                        .initialDelay(Duration.ofMillis(5))
                        .maxDelay(Duration.ofMillis(100))
                        .deadline(Duration.ofSeconds(5))
                        .maxRetryAfter(Duration.ofSeconds(1))
                        .build())
                .breakerPolicy(
                    BreakerPolicy.builder()
                        .failureRateThreshold(90f)
                        .waitInOpenState(Duration.ofMillis(200))
                        .build())
                .retryBudget(RetryBudgetPolicy.builder().capacity(100).successCredit(0.5).build())
                .build()) {
      ChaosWorker worker = new ChaosWorker(client);
      worker.plan(o.get("prefix"), Integer.parseInt(o.get("from")), Integer.parseInt(o.get("to")));
      worker.drive(Integer.parseInt(o.getOrDefault("threads", "4")));
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
      order.add(r.intentId());
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
    queue.addAll(order);
    unresolved.set(order.size());
  }

  private void drive(int threads) throws InterruptedException {
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(this::loop, "chaos-worker-" + t);
      thread.start();
      all.add(thread);
    }
    for (Thread thread : all) {
      thread.join();
    }
  }

  private void loop() {
    while (unresolved.get() > 0) {
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
          client.execute(Charges.CREATE, params(id), RequestOptions.builder().intentId(id).build());
      long micros = (System.nanoTime() - start) / 1_000;
      say("done " + id + " " + r.attempts().size() + " " + micros);
      unresolved.decrementAndGet();
      return true;
    } catch (ApiException | ResponseBodyException e) {
      say("failed " + id + " " + e.attempts().size() + " " + e.reason());
      unresolved.decrementAndGet();
      return true; // a definitive answer: re-sending cannot change it
    } catch (SafeRetryException e) {
      if (e.reason() == FailedReason.INTENT_MISMATCH) {
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
