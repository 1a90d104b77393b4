package dev.saferetry.benchmarks;

import dev.saferetry.filestore.FileKeyStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * Opens a file key store in a fresh JVM, as a restarted service does, and prints {@code OPENED
 * <wall ms> <cpu ms of the opening thread>}. Used by {@link DayVolume}; single-threaded.
 */
public final class OpenTimeMain {
  private OpenTimeMain() {}

  /** Opens the store in directory {@code args[0]} and prints the line. */
  @SuppressWarnings("try") // the store is opened only to time the opening
  public static void main(String[] args) {
    long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    long start = System.nanoTime();
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]))) {
      double wall = (System.nanoTime() - start) / 1e6;
      cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
      System.out.printf("OPENED %.0f %.0f%n", wall, cpu / 1e6);
    }
  }
}
