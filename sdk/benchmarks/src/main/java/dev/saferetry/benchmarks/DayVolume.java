package dev.saferetry.benchmarks;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A day's volume for the file key store: a log of N intents as a service writes it in a day (begin,
 * then completion, for 90 %; begin only for 10 %; creation times spread over the day, 24 h
 * retention), built on a tmpfs (fsyncs are free there) and copied to the disk under test; then its
 * open time, heap per intent and log bytes per intent, before and after a compaction. The file is
 * in the page cache when it is opened (just copied). Uses only the public API. A one-shot
 * measurement, not a JMH benchmark: each figure is taken once per run.
 *
 * <pre>
 * java -Xmx2g -cp sdk/benchmarks/target/saferetry-benchmarks.jar \
 *   dev.saferetry.benchmarks.DayVolume [--intents 1000000] [DIR]
 * </pre>
 *
 * <p>DIR (default {@code target/bench}) must be on the file system under test. Not thread-safe.
 */
public final class DayVolume {
  private static final double OPEN_TARGET_MS = 1_000;
  private static final double HEAP_TARGET = 100;
  private static final double LOG_TARGET = 150;
  private static final Instant DAY_START = Instant.parse("2026-01-01T00:00:00Z");

  private final Path root;
  private final int intents;

  private DayVolume(Path root, int intents) {
    this.root = root;
    this.intents = intents;
  }

  /** Runs the measurement; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    List<String> rest = new ArrayList<>(Arrays.asList(args));
    int intents = 1_000_000;
    if (rest.size() >= 2 && rest.get(0).equals("--intents")) {
      intents = Integer.parseInt(rest.get(1).replace("_", ""));
      rest = rest.subList(2, rest.size());
    }
    Path root = Path.of(rest.isEmpty() ? "target/bench" : rest.get(0)).toAbsolutePath();
    Files.createDirectories(root);
    System.out.printf(
        "SafeRetry file key store, a day's volume, in %s (%d cores, Java %s)%n",
        root, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    new DayVolume(root, intents).run();
  }

  private Path freshDir(Path parent) throws IOException {
    return Files.createTempDirectory(parent, "run-");
  }

  private void run() throws Exception {
    Path tmpfs = Path.of("/dev/shm");
    Path build = freshDir(Files.isDirectory(tmpfs) ? tmpfs : root);
    long started = System.nanoTime();
    build(build);
    System.out.printf(
        "%nA day's volume: %,d intents (90 %% completed, 10 %% pending), built in %.1f s%n",
        intents, (System.nanoTime() - started) / 1e9);
    Path dir = freshDir(root);
    try {
      copy(build, dir);
    } finally {
      Scratch.delete(build);
    }
    try {
      measureAll(dir);
    } finally {
      Scratch.delete(dir);
    }
  }

  private void measureAll(Path dir) throws Exception {
    System.out.println(
        "| log | open, fresh JVM (CPU) | open, this JVM | heap per intent | log bytes per intent |"
            + " targets |");
    System.out.println("|---|---:|---:|---:|---:|---|");
    measure("as written", dir, false);
    double compactSeconds = compact(dir);
    measure("compacted", dir, true);
    System.out.printf(
        "Open, compact (in the caller's thread) and close: %.1f s. Heap per completed intent,"
            + " all %,d completed: %.0f bytes (target ≤ %.0f)%n",
        compactSeconds, intents, heapAllCompleted(dir), HEAP_TARGET);
  }

  /**
   * Opens, compacts without dropping anything and closes; returns the seconds it took. Each store
   * lives in a method of its own, so that no stack slot keeps it from the heap measurements.
   */
  private static double compact(Path dir) {
    long start = System.nanoTime();
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.purgeExpired(Instant.MIN); // nothing is expired then: a compaction only
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** Writes the day: a begin per intent, a completion for nine in ten. */
  private void build(Path dir) {
    Duration step = Duration.ofNanos(Duration.ofDays(1).toNanos() / intents);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      for (int i = 0; i < intents; i++) {
        IntentRecord begun =
            store.begin(Intents.candidate(DAY_START.plus(step.multipliedBy(i)))).record();
        if (i % 10 != 9) {
          String resourceId = Intents.resourceId();
          store.complete(begun.complete(IntentState.SUCCEEDED, 201, resourceId));
        }
      }
    }
  }

  /** Copies the store and syncs the copy, so that opening it does not pay for the copy's sync. */
  private static void copy(Path from, Path to) throws IOException {
    for (String name : List.of("intents.log", "intents.mark", "saferetry.lock")) {
      Path target = to.resolve(name);
      Files.copy(from.resolve(name), target);
      Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
      try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
    }
  }

  private void measure(String what, Path dir, boolean compacted) throws Exception {
    double[] fresh = openInAFreshJvm(dir);
    long heapBefore = usedHeap();
    long start = System.nanoTime();
    FileKeyStore store = FileKeyStore.open(dir);
    double openMillis = (System.nanoTime() - start) / 1e6;
    double heap = (usedHeap() - heapBefore) / (double) intents;
    if (store.pending().size() != intents / 10) {
      throw new AssertionError("expected " + intents / 10 + " pending intents");
    }
    store.close();
    double logBytes = Files.size(dir.resolve("intents.log")) / (double) intents;
    String targets =
        String.format(
            "open ≤ %.0f ms %s%s",
            OPEN_TARGET_MS,
            fresh[0] <= OPEN_TARGET_MS ? "met" : "NOT MET",
            compacted
                ? String.format(
                    ", log ≤ %.0f B per intent %s",
                    LOG_TARGET, logBytes <= LOG_TARGET ? "met" : "NOT MET")
                : "");
    System.out.printf(
        "| %s | %.0f ms (%.0f ms) | %.0f ms | %.0f B | %.0f B | %s |%n",
        what, fresh[0], fresh[1], openMillis, heap, logBytes, targets);
  }

  /** Opens the store in a new JVM; returns its wall and CPU milliseconds. */
  private static double[] openInAFreshJvm(Path dir) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + System.getProperty("bench.heap", "2g"),
                "-cp",
                classPath(),
                OpenTimeMain.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    String opened = null;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("OPENED ")) {
          opened = line;
        }
      }
    }
    if (process.waitFor() != 0 || opened == null) {
      throw new AssertionError("the fresh JVM could not open the store");
    }
    String[] parts = opened.split(" ");
    return new double[] {Double.parseDouble(parts[1]), Double.parseDouble(parts[2])};
  }

  /** This benchmark's class path, also when it runs inside Maven (exec:java). */
  private static String classPath() {
    if (Thread.currentThread().getContextClassLoader() instanceof URLClassLoader urls) {
      StringBuilder path = new StringBuilder();
      for (URL url : urls.getURLs()) {
        path.append(path.length() == 0 ? "" : File.pathSeparator).append(url.getPath());
      }
      return path.toString();
    }
    return System.getProperty("java.class.path");
  }

  /** Completes the pending intents, then measures the heap of a store of completed ones only. */
  private double heapAllCompleted(Path dir) {
    completeAll(dir);
    long heapBefore = usedHeap();
    FileKeyStore store = FileKeyStore.open(dir);
    double heap = (usedHeap() - heapBefore) / (double) intents;
    if (!store.pending().isEmpty()) {
      throw new AssertionError("every intent should be completed");
    }
    store.close();
    return heap;
  }

  private static void completeAll(Path dir) {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      for (IntentRecord r : store.pending()) {
        store.complete(r.complete(IntentState.SUCCEEDED, 201, Intents.resourceId()));
      }
    }
  }

  private static long usedHeap() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
