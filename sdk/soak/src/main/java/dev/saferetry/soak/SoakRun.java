package dev.saferetry.soak;

import dev.saferetry.conformance.proxy.FaultProxy;
import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.testing.ChildClassPath;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;

/**
 * One soak run: reference server, fault proxy and worker processes, the kill schedule, and the
 * audit of side effects per intent at the end. Not thread-safe; one run per instance.
 */
final class SoakRun {
  private final SoakConfig cfg;
  private final PrintStream log;
  private final Random random;
  private final List<WorkerHandle> handles = new ArrayList<>();
  private final Progress progress = new Progress();
  private int kills;
  private String sharedStoreUrl;
  private SharedStore watch;
  private int restarts;
  private ChaosPlan plan;
  private boolean firstKillPending;
  private WorkerHandle firstVictim;
  private String heldIntent;

  SoakRun(SoakConfig cfg, PrintStream log) {
    this.cfg = cfg;
    this.log = log;
    this.random = new Random(cfg.seed() * 31 + 7);
  }

  /** Runs the soak and returns its figures; the caller decides what a failure means. */
  SoakReport run() throws Exception {
    String runId = SideEffectAudit.uniqueName("soak");
    Path work = Files.createTempDirectory("saferetry-soak");
    Database db = Database.prepare(cfg.jdbcUrl(), runId);
    String storeSchema = runId + "_store";
    String storeUrl = storeUrl(work, storeSchema);
    sharedStoreUrl = storeUrl;
    plan =
        new ChaosPlan(
            cfg.faultRate(), cfg.readTimeout().multipliedBy(2).plusMillis(100), cfg.seed());
    if (storeUrl != null && cfg.workers() >= 2) {
      // The first kill is decided by what happened, not by timing: the proxy holds the first
      // intent it sees back from the server, and its worker is killed once that intent is
      // pending in the shared store, so that the survivors must re-drive it.
      plan.holdFirstIntent(runId);
      firstKillPending = true;
    }
    OkHttpClient upstream = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(60)).build();
    try (ReferenceServer server =
            ReferenceServer.builder()
                .jdbcUrl(db.url())
                .lockTimeout(cfg.lockTimeout())
                .build()
                .start();
        FaultProxy proxy = FaultProxy.start(server.baseUrl(), upstream, plan)) {
      log.printf(
          Locale.ROOT,
          "soak %s: %d intents, %d workers x %d threads, fault rate %.2f,"
              + " %s, proxy %s, work dir %s%n",
          runId,
          cfg.intents(),
          cfg.workers(),
          cfg.threads(),
          cfg.faultRate(),
          db.backend(),
          proxy.baseUrl(),
          work);
      long start = System.nanoTime();
      startWorkers(work, proxy.baseUrl(), runId, storeUrl);
      drive(start);
      Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
      stopWorkers();
      return audit(db, runId, plan.counts(), server.sideEffects(), elapsed, storeUrl);
    } finally {
      stopWorkers();
      if (watch != null) {
        watch.close();
      }
      if (storeUrl != null && cfg.storeUrl().startsWith("jdbc:postgresql:")) {
        SideEffectAudit.dropPostgresSchema(cfg.storeUrl(), storeSchema);
      }
      upstream.connectionPool().evictAll();
      db.discard();
      deleteTree(work);
    }
  }

  /** The shared store's URL for the workers, or null when each keeps its own store. */
  private String storeUrl(Path work, String schema) throws SQLException {
    String url = cfg.storeUrl();
    if (url == null) {
      return null;
    }
    if (url.isBlank()) {
      return "jdbc:h2:file:" + work.resolve("intents") + ";AUTO_SERVER=TRUE";
    }
    return url.startsWith("jdbc:postgresql:")
        ? SideEffectAudit.freshPostgresSchema(url, schema)
        : url;
  }

  private void startWorkers(Path work, String baseUrl, String prefix, String storeUrl)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = ChildClassPath.of(ChaosWorker.class);
    for (int w = 0; w < cfg.workers(); w++) {
      Path store = Files.createDirectories(work.resolve("worker-" + w));
      List<String> command =
          new ArrayList<>(
              List.of(
                  java,
                  "-XX:+UseSerialGC",
                  "-XX:TieredStopAtLevel=1",
                  "-Xmx256m",
                  "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                  "-cp",
                  classpath,
                  ChaosWorker.class.getName(),
                  "--base-url",
                  baseUrl,
                  "--store",
                  store.toString(),
                  "--prefix",
                  prefix,
                  "--from",
                  "" + (long) w * cfg.intents() / cfg.workers(),
                  "--to",
                  "" + (long) (w + 1) * cfg.intents() / cfg.workers(),
                  "--threads",
                  "" + cfg.threads(),
                  "--read-timeout-ms",
                  "" + cfg.readTimeout().toMillis(),
                  "--store-kind",
                  storeUrl != null ? "jdbc" : cfg.durableStore() ? "file" : "memory",
                  "--stop-at-epoch-ms",
                  "" + (System.currentTimeMillis() + cfg.timeCap().toMillis() + 60_000)));
      if (storeUrl != null) {
        command.addAll(List.of("--store-url", storeUrl));
      }
      WorkerHandle h = new WorkerHandle(w, command, work.resolve("worker-" + w + ".log"), progress);
      h.start();
      handles.add(h);
    }
  }

  /** Restarts workers that died, kills at random moments, until all finish or time is up. */
  private void drive(long start) throws Exception {
    long deadline = start + cfg.timeCap().toNanos();
    long killGap = cfg.killInterval().toNanos();
    long nextKillAt = killGap > 0 ? System.nanoTime() + jitter(killGap) : Long.MAX_VALUE;
    long nextKillResolved =
        cfg.killEveryIntents() > 0 ? jitter(cfg.killEveryIntents()) : Long.MAX_VALUE;
    long nextReport = System.nanoTime() + 5_000_000_000L;
    while (!handles.stream().allMatch(WorkerHandle::finished) && System.nanoTime() < deadline) {
      for (WorkerHandle h : handles) {
        if (h == firstVictim && !progress.isDone(heldIntent)) {
          continue; // down until a survivor has re-driven the intent it left pending
        }
        if (!h.alive() && !h.finished() && h.mayStart()) {
          h.drain();
          if (!h.finished()) {
            log.printf(
                "worker %d exited with %d before finishing (log %s): restarting%n",
                h.index(), h.exitCode(), h.log());
            h.start();
            restarts++;
          }
        }
      }
      long now = System.nanoTime();
      if (firstKillPending) {
        if (killHolder()) {
          nextKillResolved =
              cfg.killEveryIntents() > 0
                  ? progress.resolved() + jitter(cfg.killEveryIntents())
                  : Long.MAX_VALUE;
        }
      } else if ((now >= nextKillAt || progress.resolved() >= nextKillResolved) && killOne()) {
        nextKillAt = killGap > 0 ? now + jitter(killGap) : Long.MAX_VALUE;
        nextKillResolved =
            cfg.killEveryIntents() > 0
                ? progress.resolved() + jitter(cfg.killEveryIntents())
                : Long.MAX_VALUE;
      }
      if (now >= nextReport) {
        log.printf(
            Locale.ROOT,
            "  ... %d/%d intents resolved, %d kills, %.0f s%n",
            progress.resolved(),
            cfg.intents(),
            kills,
            (now - start) / 1e9);
        nextReport = now + 5_000_000_000L;
      }
      progress.awaitChange(50);
    }
  }

  /**
   * The first kill with a shared store: once the held intent has reached the proxy and is pending
   * in the store, SIGKILLs the worker whose slice holds it and lets the intent through again; the
   * worker stays down until another worker has re-driven it. Returns whether it killed.
   */
  private boolean killHolder() throws Exception {
    String id = plan.heldIntent();
    if (id == null || !pendingInSharedStore(id)) {
      return false;
    }
    WorkerHandle victim = handles.get(workerOf(id));
    if (!victim.alive()) {
      return false; // restarting on its own: its recovery sends the intent again
    }
    victim.kill();
    victim.markKilled();
    kills++;
    firstVictim = victim;
    heldIntent = id;
    firstKillPending = false;
    plan.release();
    log.printf(
        "killed worker %d with intent %s pending in the shared store; it restarts once another"
            + " worker has re-driven that intent%n",
        victim.index(), id);
    return true;
  }

  /** Kills a random running worker; false when none may be killed now. */
  private boolean killOne() throws Exception {
    List<WorkerHandle> candidates =
        handles.stream().filter(h -> h.alive() && !h.finished()).toList();
    long alive = handles.stream().filter(WorkerHandle::alive).count();
    if (candidates.isEmpty() || (cfg.storeUrl() != null && alive < 2)) {
      return false; // with a shared store, a kill leaves a survivor to take the intents over
    }
    if (cfg.storeUrl() != null) {
      // Only a worker whose intents are pending in the store right now: killed, it leaves them
      // for the survivors (one killed while starting, between calls, or before its calls were
      // recorded leaves none).
      Set<Integer> holding = workersWithPendingIntents();
      candidates = candidates.stream().filter(h -> holding.contains(h.index())).toList();
      if (candidates.isEmpty()) {
        return false;
      }
    }
    WorkerHandle victim = candidates.get(random.nextInt(candidates.size()));
    victim.kill();
    victim.markKilled();
    kills++;
    if (cfg.storeUrl() != null) {
      victim.restartAfter(Duration.ofSeconds(3)); // meanwhile the survivors take its intents over
      return true;
    }
    if (!victim.finished()) {
      victim.start();
      restarts++;
    }
    return true;
  }

  private long jitter(long mean) {
    return (long) (mean * (0.5 + random.nextDouble()));
  }

  private void stopWorkers() throws InterruptedException {
    for (WorkerHandle h : handles) {
      if (h.alive()) {
        h.kill();
      }
    }
  }

  private SoakReport audit(
      Database db,
      String prefix,
      Map<FaultKind, Long> faults,
      long serverTotal,
      Duration elapsed,
      String storeUrl)
      throws Exception {
    Map<String, Long> effects = SideEffectAudit.effectsByIntent(db.url(), prefix);
    Map<String, Long> charges = SideEffectAudit.chargesByIntent(db.url(), prefix);
    TreeMap<Long, Long> histogram = new TreeMap<>();
    long duplicates = 0;
    long lost = 0;
    long neverResolved = 0;
    long mismatches = 0;
    for (int n = 0; n < cfg.intents(); n++) {
      String id = ChaosWorker.intentId(prefix, n);
      long e = effects.getOrDefault(id, 0L);
      histogram.merge(e, 1L, Long::sum);
      duplicates += e > 1 ? 1 : 0;
      lost += e == 0 ? 1 : 0;
      neverResolved += progress.isDone(id) ? 0 : 1;
      mismatches += charges.getOrDefault(id, 0L) == e ? 0 : 1;
    }
    long counted = effects.values().stream().mapToLong(Long::longValue).sum();
    if (counted != serverTotal) {
      log.printf(
          "side effects: %d counted per intent, %d by the server's own counter%n",
          counted, serverTotal);
      mismatches += Math.abs(counted - serverTotal);
    }
    long posts = faults.values().stream().mapToLong(Long::longValue).sum();
    return new SoakReport(
        db.backend(),
        cfg.intents(),
        progress.resolved(),
        progress.attempts(),
        posts,
        progress.unresolvedCalls(),
        faults,
        kills,
        restarts,
        progress.recovered(),
        histogram,
        duplicates,
        lost,
        neverResolved,
        progress.failed().size(),
        mismatches,
        percentiles(progress.latencies()),
        elapsed,
        storeUrl == null
            ? cfg.durableStore() ? "a file store per worker" : "memory (forgotten on restart)"
            : "one JDBC store shared by all workers ("
                + storeUrl.substring(0, storeUrl.indexOf(':', 5))
                + ")",
        adoptedFromKilledWorkers());
  }

  /** Intents of a killed worker's slice that another worker re-drove to success. */
  private long adoptedFromKilledWorkers() {
    long n = 0;
    for (String id : progress.adopted()) {
      if (handles.get(workerOf(id)).wasKilled()) {
        n++;
      }
    }
    return n;
  }

  /** The index of the worker whose slice holds the intent. */
  private int workerOf(String intentId) {
    long number = Long.parseLong(intentId.substring(intentId.lastIndexOf('-') + 1));
    for (int w = 0; w < cfg.workers(); w++) {
      if (number < (long) (w + 1) * cfg.intents() / cfg.workers()) {
        return w;
      }
    }
    return cfg.workers() - 1;
  }

  /** Whether intent {@code id} is pending in the shared store. */
  private boolean pendingInSharedStore(String id) {
    if (watch == null) {
      watch = SharedStore.open(sharedStoreUrl, 1);
    }
    return watch.store().pending().stream().anyMatch(r -> r.intentId().equals(id));
  }

  /** The workers with at least one intent of their slice pending in the shared store. */
  private Set<Integer> workersWithPendingIntents() {
    if (watch == null) {
      watch = SharedStore.open(sharedStoreUrl, 1); // the workers created the table
    }
    Set<Integer> holding = new HashSet<>();
    for (IntentRecord r : watch.store().pending()) {
      holding.add(workerOf(r.intentId()));
    }
    return holding;
  }

  private static double[] percentiles(List<Long> micros) {
    if (micros.isEmpty()) {
      return new double[4];
    }
    long[] v = micros.stream().mapToLong(Long::longValue).sorted().toArray();
    double[] q = {0.50, 0.90, 0.99, 1.0};
    double[] out = new double[q.length];
    for (int i = 0; i < q.length; i++) {
      int index = (int) Math.max(0, Math.ceil(q[i] * v.length) - 1);
      out[i] = v[Math.min(v.length - 1, index)] / 1e3;
    }
    return out;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
