package dev.saferetry.benchmarks;

import dev.saferetry.filestore.FileKeyStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The file key store's cost per intent (begin + complete, {@link #store}) next to what any durable
 * write costs: a raw append of a record of the same size + {@code fdatasync} ({@link #rawAppend})
 * and a raw overwrite of preallocated space + {@code fdatasync} ({@link #rawOverwrite}). Run with
 * one caller for the ratios and with 8 and 32 callers (and a group-commit window) for the speed-up
 * of shared fsyncs; {@link Benchmarks} prints both.
 *
 * <p>The directory under test is {@code -Dbench.dir} (default {@code target/bench}): it must be on
 * the file system you care about; a tmpfs makes every fsync free and the figures meaningless. One
 * state per trial, shared by the caller threads (the store is thread-safe; the raw files are only
 * measured with one caller).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FileKeyStoreCost {
  private static final int RECORD_BYTES = 200;
  private static final long PREALLOCATED = 64L * 1024 * 1024;

  /** The store's group-commit window in microseconds (0: none). */
  @Param({"0"})
  public int groupCommitMicros;

  private Path dir;
  private FileKeyStore store;
  private FileChannel append;
  private FileChannel overwrite;
  private long appendAt;
  private long overwriteAt;
  private final ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);

  /** The directory under test: {@code -Dbench.dir}, default {@code target/bench}. */
  static Path root() throws IOException {
    Path root = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();
    return Files.createDirectories(root);
  }

  /** Opens the store and the two raw files in a fresh directory. */
  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory(root(), "file-store");
    store =
        FileKeyStore.open(
            Files.createDirectories(dir.resolve("store")),
            Duration.ofNanos(groupCommitMicros * 1_000L));
    append = channel(dir.resolve("append.log"));
    overwrite = channel(dir.resolve("overwrite.log"));
    ByteBuffer zeros = ByteBuffer.allocate(1024 * 1024);
    for (long at = 0; at < PREALLOCATED; at += zeros.capacity()) {
      overwrite.write(zeros.clear(), at);
    }
    overwrite.force(true);
    ThreadLocalRandom.current().nextBytes(record.array());
  }

  private static FileChannel channel(Path file) throws IOException {
    return FileChannel.open(
        file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
  }

  /** Closes everything and deletes the directory. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    long intents = store.intentCount();
    if (intents > 0) { // only in the forks that measured the store
      System.out.printf(
          "file store: %.3f fsyncs per intent over %d intents%n",
          store.syncCount() / (double) intents, intents);
    }
    store.close();
    append.close();
    overwrite.close();
    Scratch.delete(dir);
  }

  /** Begin + complete of one new intent through {@link FileKeyStore}. */
  @Benchmark
  public void store() {
    Intents.beginAndComplete(store);
  }

  /** A raw append of a 200-byte record + {@code fdatasync}: the baseline. */
  @Benchmark
  public void rawAppend() throws IOException {
    appendAt += append.write(record.clear(), appendAt);
    append.force(false);
  }

  /** A raw overwrite of preallocated space + {@code fdatasync}: the floor. */
  @Benchmark
  public void rawOverwrite() throws IOException {
    if (overwriteAt + RECORD_BYTES > PREALLOCATED) {
      overwriteAt = 0;
    }
    overwriteAt += overwrite.write(record.clear(), overwriteAt);
    overwrite.force(false);
  }
}
