package dev.saferetry.bench;

import dev.saferetry.idempotency.FileKeyStore;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A bounded benchmark of the file key store's cost per intent, printed as tables next to their
 * targets. Not a test: run it on the disk you care about.
 *
 * <pre>
 * mvn -B -q -pl sdk test-compile exec:java@bench [-Dexec.args="[--intents 1000000] [DIR]"]
 * </pre>
 *
 * <p>Without {@code --intents}: one caller's begin + complete against a raw append + {@code
 * fdatasync} and a raw overwrite of preallocated space + {@code fdatasync}, in interleaved slices
 * (the median of their ratios), then throughput with 1, 8 and 32 callers (about 30 s). With {@code
 * --intents N}: a day's volume, N intents (90 % completed, 10 % pending) in a log built on a tmpfs
 * and copied to DIR, then opened, compacted and reopened there (about a minute for a million; give
 * the JVM 2 GB of heap through {@code MAVEN_OPTS=-Xmx2g}).
 *
 * <p>DIR (default {@code target/bench}) must be on the file system under test; a tmpfs makes every
 * fsync free and the figures meaningless. Runs from one thread (it starts its own workers).
 */
public final class KeyStoreBenchmark {
  static final IntentScope SCOPE = new IntentScope("bench", "POST /v1/charges");
  private static final int ROUNDS = 30;
  private static final int SLICE = 100;
  private static final int RECORD_BYTES = 200;
  private static final Duration THROUGHPUT_RUN = Duration.ofSeconds(3);
  private static final double SINGLE_TARGET = 1.15;

  private final Path root;
  private final AtomicInteger ids = new AtomicInteger();
  private final List<Path> scratch = new ArrayList<>();

  KeyStoreBenchmark(Path root) {
    this.root = root;
  }

  public static void main(String[] args) throws Exception {
    List<String> rest = new ArrayList<>(Arrays.asList(args));
    int intents = 0;
    if (rest.size() >= 2 && rest.get(0).equals("--intents")) {
      intents = Integer.parseInt(rest.get(1).replace("_", ""));
      rest = rest.subList(2, rest.size());
    }
    Path root = Path.of(rest.isEmpty() ? "target/bench" : rest.get(0)).toAbsolutePath();
    Files.createDirectories(root);
    KeyStoreBenchmark benchmark = new KeyStoreBenchmark(root);
    try {
      System.out.printf(
          "SafeRetry key store benchmark in %s (%d cores, Java %s)%n",
          root, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
      if (intents > 0) {
        new DayVolume(benchmark, intents).run();
      } else {
        benchmark.singleCaller();
        benchmark.concurrentCallers();
      }
    } finally {
      benchmark.scratch.forEach(KeyStoreBenchmark::deleteQuietly);
    }
  }

  /** One caller: the store against raw appends and raw overwrites, slices taking turns. */
  private void singleCaller() throws Exception {
    double[][] micros = new double[3][ROUNDS];
    try (FileChannel append = rawFile(false);
        FileChannel overwrite = rawFile(true);
        FileKeyStore store = FileKeyStore.open(freshDir())) {
      for (int i = 0; i < 2_000; i++) {
        oneIntent(store); // warm-up
      }
      long[] positions = new long[2];
      for (int round = 0; round < ROUNDS; round++) {
        micros[0][round] = rawSlice(append, positions, 0);
        micros[1][round] = rawSlice(overwrite, positions, 1);
        micros[2][round] = storeSlice(store);
      }
    }
    double[] ratios = new double[ROUNDS];
    double[] limitRatios = new double[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      ratios[round] = micros[2][round] / micros[0][round];
      limitRatios[round] = micros[2][round] / micros[1][round];
    }
    System.out.printf(
        "%nOne caller, begin + complete of one intent: %d rounds of %d, medians%n", ROUNDS, SLICE);
    System.out.println("| | µs per intent | FileKeyStore vs it | target |");
    System.out.println("|---|---:|---:|---:|");
    System.out.printf(
        "| raw append + fdatasync | %.1f | %.2f× | ≤ %.2f× %s |%n",
        median(micros[0]),
        median(ratios),
        SINGLE_TARGET,
        median(ratios) <= SINGLE_TARGET ? "met" : "NOT MET");
    System.out.printf(
        "| raw overwrite of preallocated space + fdatasync | %.1f | %.2f× | |%n",
        median(micros[1]), median(limitRatios));
    System.out.printf("| FileKeyStore | %.1f | | |%n", median(micros[2]));
  }

  private FileChannel rawFile(boolean preallocated) throws IOException {
    Path file = freshDir().resolve("raw.log");
    FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
    if (preallocated) {
      ByteBuffer zeros = ByteBuffer.allocate(1024 * 1024);
      for (long at = 0; at < (long) (ROUNDS + 1) * SLICE * RECORD_BYTES; at += zeros.capacity()) {
        channel.write(zeros.clear(), at);
      }
      channel.force(true);
    }
    return channel;
  }

  /** A slice of raw record writes, each followed by fdatasync; returns µs per record. */
  private static double rawSlice(FileChannel channel, long[] positions, int which)
      throws IOException {
    ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);
    ThreadLocalRandom.current().nextBytes(record.array());
    long start = System.nanoTime();
    for (int i = 0; i < SLICE; i++) {
      positions[which] += channel.write(record.clear(), positions[which]);
      channel.force(false);
    }
    return (System.nanoTime() - start) / 1_000.0 / SLICE;
  }

  /** A slice of begin + complete, of records built beforehand: only the store's work is timed. */
  private double storeSlice(KeyStore store) {
    IntentRecord[] candidates = new IntentRecord[SLICE];
    IntentRecord[] completions = new IntentRecord[SLICE];
    for (int i = 0; i < SLICE; i++) {
      candidates[i] = candidate(Instant.now());
      completions[i] = candidates[i].complete(IntentState.SUCCEEDED, 201, resourceId());
    }
    long start = System.nanoTime();
    for (int i = 0; i < SLICE; i++) {
      store.begin(candidates[i]);
      store.complete(completions[i]);
    }
    return (System.nanoTime() - start) / 1_000.0 / SLICE;
  }

  void oneIntent(KeyStore store) {
    IntentRecord begun = store.begin(candidate(Instant.now())).record();
    store.complete(begun.complete(IntentState.SUCCEEDED, 201, resourceId()));
  }

  /**
   * A pending intent as the client records it: UUID key, SHA-256 fingerprint, a day's retention.
   */
  IntentRecord candidate(Instant created) {
    String id = "order-" + ids.incrementAndGet() + "/charge";
    return IntentRecord.pending(
        SCOPE, id, IdempotencyKey.random(), hex(32), created, Duration.ofHours(24));
  }

  /** A resource id of Stripe's shape. */
  static String resourceId() {
    return "ch_3" + hex(12).substring(0, 23);
  }

  private static String hex(int bytes) {
    byte[] random = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(random);
    StringBuilder out = new StringBuilder();
    for (byte b : random) {
      out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return out.toString();
  }

  /** Throughput with 1, 8 and 32 callers sharing syncs, and 32 with a group-commit window. */
  private void concurrentCallers() throws Exception {
    System.out.printf(
        "%nConcurrent callers, begin + complete, %d s each%n", THROUGHPUT_RUN.toSeconds());
    System.out.println(
        "| callers | group-commit window | intents/s | fsyncs per intent | speed-up vs 1 caller |"
            + " target |");
    System.out.println("|---:|---:|---:|---:|---:|---|");
    double base = throughputRow(1, Duration.ZERO, 0);
    throughputRow(8, Duration.ZERO, base);
    throughputRow(32, Duration.ZERO, base);
    throughputRow(32, Duration.ofNanos(200_000), base);
  }

  private double throughputRow(int callers, Duration window, double base) throws Exception {
    try (FileKeyStore store = FileKeyStore.builder(freshDir()).groupCommitWindow(window).open()) {
      runCallers(store, callers, Duration.ofMillis(300)); // warm-up
      long syncs = store.stats().syncs();
      long start = System.nanoTime();
      int intents = runCallers(store, callers, THROUGHPUT_RUN);
      double perSecond = intents / ((System.nanoTime() - start) / 1e9);
      double fsyncsPerIntent = (store.stats().syncs() - syncs) / (double) intents;
      double speedUp = base == 0 ? 1.0 : perSecond / base;
      String target = "";
      if (callers > 1) { // group commit: several intents share a sync, throughput grows
        int sharing = callers == 8 ? 3 : 6;
        boolean met = fsyncsPerIntent <= 1.0 / sharing && speedUp >= 2;
        target = String.format("≥ %d intents per fsync, ≥ 2× %s", sharing, met ? "met" : "NOT MET");
      }
      System.out.printf(
          "| %d | %s | %.0f | %.3f | %.1f× | %s |%n",
          callers,
          window.isZero() ? "0" : window.toNanos() / 1_000 + " µs",
          perSecond,
          fsyncsPerIntent,
          speedUp,
          target);
      return perSecond;
    }
  }

  private int runCallers(KeyStore store, int callers, Duration duration) throws Exception {
    long deadline = System.nanoTime() + duration.toNanos();
    AtomicInteger done = new AtomicInteger();
    CountDownLatch finished = new CountDownLatch(callers);
    for (int t = 0; t < callers; t++) {
      new Thread(
              () -> {
                while (System.nanoTime() < deadline) {
                  oneIntent(store);
                  done.incrementAndGet();
                }
                finished.countDown();
              })
          .start();
    }
    finished.await();
    return done.get();
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  Path root() {
    return root;
  }

  Path freshDir() throws IOException {
    return freshDir(root);
  }

  Path freshDir(Path parent) throws IOException {
    Path dir = parent.resolve("run-" + System.nanoTime());
    Files.createDirectories(dir);
    scratch.add(dir);
    return dir;
  }

  static void deleteQuietly(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: it is a scratch directory
    }
  }
}
