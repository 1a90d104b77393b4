package dev.saferetry.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A second JVM running one of the examples' {@code main} methods, with this JVM's classpath, and
 * its standard output readable line by line. Test scaffolding for the crash example.
 *
 * <p>The classpath is taken from the class loaders (under {@code mvn exec:java} the project's
 * classes and dependencies are in a {@link URLClassLoader}, while {@code java.class.path} is
 * Maven's launcher) plus {@code java.class.path} (plain {@code java}, Surefire, IDEs).
 *
 * <p>Not thread-safe: one owner reads its output.
 */
final class ChildJvm implements AutoCloseable {
  private static final String END = "\u0000end";
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private ChildJvm(Process process) {
    this.process = process;
    Thread reader = new Thread(this::pump, "child-jvm-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code mainClass} with {@code args} in a new JVM. */
  static ChildJvm start(Class<?> mainClass, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                ChildClasspath.build(),
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                mainClass.getName()));
    command.addAll(Arrays.asList(args));
    try {
      return new ChildJvm(
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a child JVM", e);
    }
  }

  /** Returns the next line matching {@code wanted}, skipping others; fails after the timeout. */
  String awaitLine(Predicate<String> wanted, long seconds) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      String line = lines.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(END)) {
        throw new IllegalStateException(
            "child JVM "
                + (line == null ? "timed out" : "ended")
                + " before printing the expected line");
      }
      if (wanted.test(line)) {
        return line;
      }
    }
  }

  /** Waits for the process to exit and returns its remaining output lines. */
  List<String> finish(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      throw new IllegalStateException("child JVM did not finish in " + seconds + " s");
    }
    List<String> rest = new ArrayList<>();
    for (String l = lines.poll(5, TimeUnit.SECONDS);
        l != null && !l.equals(END);
        l = lines.poll(5, TimeUnit.SECONDS)) {
      rest.add(l);
    }
    return rest;
  }

  /** Kills the process the hard way (SIGKILL: no shutdown hooks, no finally blocks). */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** Returns the exit code; the process must have ended. */
  int exitValue() {
    return process.exitValue();
  }

  private void pump() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the process was killed: its output ends here
    } finally {
      lines.add(END);
    }
  }

  /** Kills the process if it is still running. */
  @Override
  public void close() {
    process.destroyForcibly();
  }
}
