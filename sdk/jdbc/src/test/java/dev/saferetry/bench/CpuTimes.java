package dev.saferetry.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time used on a Linux machine, from the user and system times in {@code /proc/<pid>/stat}:
 * this JVM's, and the database server's when it runs on the same machine (every process whose name
 * starts with {@code postgres}). Each is unknown (always 0) when {@code /proc} cannot be read; the
 * server's also when the URL names another host.
 */
final class CpuTimes {
  /** Clock ticks per second of {@code /proc}'s times: 100 on every current Linux platform. */
  private static final long TICKS_PER_SECOND = 100;

  private final boolean jvmKnown;
  private final boolean serverKnown;

  private CpuTimes(boolean jvmKnown, boolean serverKnown) {
    this.jvmKnown = jvmKnown;
    this.serverKnown = serverKnown;
  }

  static CpuTimes forUrl(String jdbcUrl) {
    boolean local =
        jdbcUrl.contains("//127.0.0.1")
            || jdbcUrl.contains("//localhost")
            || jdbcUrl.contains("//[::1]");
    boolean readable = Files.isReadable(Path.of("/proc/self/stat"));
    return new CpuTimes(readable, readable && local);
  }

  /** Whether this JVM's CPU time can be read. */
  boolean jvmKnown() {
    return jvmKnown;
  }

  /** Whether the server's CPU time can be read. */
  boolean serverKnown() {
    return serverKnown;
  }

  /** This JVM's CPU time so far, in microseconds; 0 when unknown. */
  long jvmMicros() {
    return jvmKnown ? ticks(Path.of("/proc/self"), false) * 1_000_000 / TICKS_PER_SECOND : 0;
  }

  /** The server processes' CPU time so far, in microseconds; 0 when unknown. */
  long serverMicros() {
    if (!serverKnown) {
      return 0;
    }
    long ticks = 0;
    try (DirectoryStream<Path> processes =
        Files.newDirectoryStream(
            Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
      for (Path process : processes) {
        ticks += ticks(process, true);
      }
    } catch (IOException e) {
      return 0;
    }
    return ticks * 1_000_000 / TICKS_PER_SECOND;
  }

  /**
   * utime + stime of one process; 0 when it is not the server's but {@code serverOnly}, or when it
   * just ended.
   */
  private static long ticks(Path process, boolean serverOnly) {
    String stat;
    try {
      stat = Files.readString(process.resolve("stat"));
    } catch (IOException e) {
      return 0;
    }
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open || (serverOnly && !stat.startsWith("postgres", open + 1))) {
      return 0;
    }
    String[] fields = stat.substring(close + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
