package dev.saferetry.bench;

import dev.saferetry.idempotency.FileKeyStore;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.InMemoryKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.store.LogStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A bounded benchmark (about 30 s) of the key stores' cost per intent, printed as a table. Not a
 * test: run it on the disk you care about, on an otherwise idle machine.
 *
 * <pre>
 * mvn -B -q -pl sdk test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.saferetry.bench.KeyStoreBenchmark [-Dexec.args=DIR]
 * </pre>
 *
 * <p>DIR (default {@code target/bench}) must be on the file system under test; a tmpfs makes every
 * fsync free and the figures meaningless. Runs from one thread (it starts its own workers).
 */
public final class KeyStoreBenchmark {
  private static final IntentScope SCOPE = new IntentScope("bench", "POST /v1/charges");
  private static final int RAW_FSYNCS = 2_000;
  private static final int SINGLE_FILE_INTENTS = 2_000;
  private static final int SINGLE_MEMORY_INTENTS = 200_000;
  private static final Duration THROUGHPUT_RUN = Duration.ofSeconds(3);

  private final Path root;
  private final AtomicInteger ids = new AtomicInteger();
  private final List<Path> scratch = new ArrayList<>();

  private KeyStoreBenchmark(Path root) {
    this.root = root;
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args.length > 0 ? args[0] : "target/bench").toAbsolutePath();
    Files.createDirectories(root);
    KeyStoreBenchmark benchmark = new KeyStoreBenchmark(root);
    try {
      benchmark.run();
    } finally {
      benchmark.scratch.forEach(KeyStoreBenchmark::deleteQuietly);
    }
  }

  private void run() throws Exception {
    System.out.printf(
        "SafeRetry key store benchmark in %s (%d cores, Java %s)%n",
        root, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    double fsyncMicros = rawAppendAndForceMicros();
    double memoryMicros = singleThreadMicros(new InMemoryKeyStore(), SINGLE_MEMORY_INTENTS);
    double fileMicros;
    try (FileKeyStore store = FileKeyStore.open(freshDir())) {
      singleThreadMicros(store, 200); // warm-up
      fileMicros = singleThreadMicros(store, SINGLE_FILE_INTENTS);
    }
    System.out.println();
    System.out.println(
        "| single thread, begin + complete | µs per intent | vs in-memory | vs one append+fsync |");
    System.out.println("|---|---:|---:|---:|");
    row("raw append + fsync (FileChannel.force)", fsyncMicros, fsyncMicros / memoryMicros, 1.0);
    row("InMemoryKeyStore", memoryMicros, 1.0, memoryMicros / fsyncMicros);
    row("FileKeyStore", fileMicros, fileMicros / memoryMicros, fileMicros / fsyncMicros);
    System.out.println();
    System.out.println(
        "| FileKeyStore threads | group-commit window | intents/s | fsyncs per intent | speed-up vs"
            + " 1 thread |");
    System.out.println("|---:|---:|---:|---:|---:|");
    double base = 0;
    for (int threads : new int[] {1, 8, 32}) {
      base = throughputRow(threads, Duration.ZERO, base);
    }
    throughputRow(32, Duration.ofNanos(200_000), base);
  }

  private static void row(String name, double micros, double vsMemory, double vsFsync) {
    System.out.printf("| %s | %.2f | %.1f× | %.2f× |%n", name, micros, vsMemory, vsFsync);
  }

  /** The machine's cost of one small append plus fdatasync, as the store does it. */
  private double rawAppendAndForceMicros() throws IOException {
    Path file = freshDir().resolve("raw.log");
    ByteBuffer record = ByteBuffer.allocate(160);
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long start = 0;
      for (int i = -50; i < RAW_FSYNCS; i++) {
        if (i == 0) {
          start = System.nanoTime();
        }
        channel.write(record.clear());
        channel.force(false);
      }
      return (System.nanoTime() - start) / 1_000.0 / RAW_FSYNCS;
    }
  }

  private double singleThreadMicros(KeyStore store, int intents) {
    long start = System.nanoTime();
    for (int i = 0; i < intents; i++) {
      oneIntent(store);
    }
    return (System.nanoTime() - start) / 1_000.0 / intents;
  }

  private void oneIntent(KeyStore store) {
    IntentRecord begun = store.begin(candidate()).record();
    store.complete(begun.complete(IntentState.SUCCEEDED, 201, "ch_" + begun.intentId()));
  }

  private IntentRecord candidate() {
    String id = "order-" + ids.incrementAndGet() + "/charge";
    String fingerprint = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    return IntentRecord.pending(
        SCOPE, id, IdempotencyKey.random(), fingerprint, Instant.now(), Duration.ofHours(24));
  }

  private double throughputRow(int threads, Duration window, double base) throws Exception {
    try (LogStore store = LogStore.open(freshDir(), window.toNanos())) {
      runThreads(store, threads, Duration.ofMillis(300)); // warm-up
      long syncs = store.syncCount();
      long start = System.nanoTime();
      int intents = runThreads(store, threads, THROUGHPUT_RUN);
      double seconds = (System.nanoTime() - start) / 1e9;
      double perSecond = intents / seconds;
      double fsyncsPerIntent = (store.syncCount() - syncs) / (double) intents;
      double speedUp = base == 0 ? 1.0 : perSecond / base;
      System.out.printf(
          "| %d | %s | %.0f | %.3f | %.1f× |%n",
          threads,
          window.isZero() ? "0" : window.toNanos() / 1_000 + " µs",
          perSecond,
          fsyncsPerIntent,
          speedUp);
      return base == 0 ? perSecond : base;
    }
  }

  private int runThreads(KeyStore store, int threads, Duration duration) throws Exception {
    long deadline = System.nanoTime() + duration.toNanos();
    AtomicInteger done = new AtomicInteger();
    CountDownLatch finished = new CountDownLatch(threads);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker =
          new Thread(
              () -> {
                while (System.nanoTime() < deadline) {
                  oneIntent(store);
                  done.incrementAndGet();
                }
                finished.countDown();
              });
      workers.add(worker);
      worker.start();
    }
    finished.await();
    return done.get();
  }

  private Path freshDir() throws IOException {
    Path dir = root.resolve("run-" + System.nanoTime());
    Files.createDirectories(dir);
    scratch.add(dir);
    return dir;
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: it is a scratch directory
    }
  }
}
