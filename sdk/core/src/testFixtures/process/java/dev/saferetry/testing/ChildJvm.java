package dev.saferetry.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A second JVM running a class's {@code main} on this JVM's class path ({@link ChildClassPath}),
 * driven line by line through its standard input and output; its standard error goes to a file,
 * quoted when the child fails. Crash tests kill it with SIGKILL: no shutdown hook, no finally block
 * runs.
 *
 * <p>Not thread-safe: one owner drives a child.
 */
public final class ChildJvm implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 30;
  private static final String END = "\u0000end";

  private final Process process;
  private final Path stderr;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    Thread reader = new Thread(this::pump, "child-stdout-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code mainClass} with {@code args} in a new JVM. */
  public static ChildJvm start(Class<?> mainClass, String... args) throws IOException {
    return startUnder(List.of(), mainClass, args);
  }

  /**
   * Starts {@code mainClass} with {@code args} in a new JVM run by {@code wrapper} (e.g. {@code
   * strace -o FILE}); an empty wrapper runs the JVM directly.
   */
  public static ChildJvm startUnder(List<String> wrapper, Class<?> mainClass, String... args)
      throws IOException {
    return launch(wrapper, Path.of(System.getProperty("java.home")), List.of(), mainClass, args);
  }

  /**
   * Starts {@code mainClass} with {@code args} in a new JVM of the Java installation {@code
   * javaHome} (this JVM's {@code java.home}, or another JDK), with {@code jvmOptions} before the
   * class path, e.g. {@code -Duser.timezone=Asia/Tokyo}.
   */
  public static ChildJvm startWith(
      Path javaHome, List<String> jvmOptions, Class<?> mainClass, String... args)
      throws IOException {
    return launch(List.of(), javaHome, jvmOptions, mainClass, args);
  }

  private static ChildJvm launch(
      List<String> wrapper,
      Path javaHome,
      List<String> jvmOptions,
      Class<?> mainClass,
      String... args)
      throws IOException {
    List<String> command = new ArrayList<>(wrapper);
    command.add(javaHome.resolve("bin").resolve("java").toString());
    command.addAll(List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", ChildClassPath.of(mainClass), mainClass.getName()));
    command.addAll(List.of(args));
    Path stderr = Files.createTempFile("child-jvm", ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
            .start();
    return new ChildJvm(process, stderr);
  }

  /** Returns the next line starting with {@code prefix}, skipping others; fails after 30 s. */
  public String awaitLine(String prefix) throws InterruptedException, IOException {
    return awaitLine(line -> line.startsWith(prefix), TIMEOUT_SECONDS);
  }

  /** Returns the next line matching {@code wanted}, skipping others; fails after the timeout. */
  public String awaitLine(Predicate<String> wanted, long seconds) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      String line = lines.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(END)) {
        throw new AssertionError(
            "child "
                + (line == null ? "timed out" : "exited")
                + " before printing the expected line; stderr:\n"
                + err());
      }
      if (wanted.test(line)) {
        return line;
      }
    }
  }

  /** Returns every line up to and including the next one starting with {@code prefix}. */
  public List<String> linesThrough(String prefix) throws InterruptedException, IOException {
    List<String> seen = new ArrayList<>();
    while (true) {
      String line = lines.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (line == null || line.equals(END)) {
        throw new AssertionError(
            "child printed no '" + prefix + "' line; saw " + seen + "; stderr:\n" + err());
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return seen;
      }
    }
  }

  /** Waits up to {@code seconds} for the child to exit and returns the lines it printed since. */
  public List<String> finish(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child did not exit in " + seconds + " s; stderr:\n" + err());
    }
    List<String> rest = new ArrayList<>();
    for (String l = lines.poll(5, TimeUnit.SECONDS);
        l != null && !l.equals(END);
        l = lines.poll(5, TimeUnit.SECONDS)) {
      rest.add(l);
    }
    return rest;
  }

  /** The child's process id. */
  public long pid() {
    return process.pid();
  }

  /** Sends one line to the child's standard input. */
  public void send(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Kills the child with SIGKILL (on Unix) and returns its exit value. */
  public int kill() throws InterruptedException {
    process.destroyForcibly();
    return waitForExit();
  }

  /** Waits up to 30 s for the child to exit and returns its exit value. */
  public int waitForExit() throws InterruptedException {
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child did not exit in time");
    }
    return process.exitValue();
  }

  /** Returns the exit value; the child must have exited. */
  public int exitValue() {
    return process.exitValue();
  }

  /** Returns what the child wrote to standard error so far. */
  public String err() {
    try {
      return Files.readString(stderr, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(stderr unreadable: " + e + ")";
    }
  }

  private void pump() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the child was killed: its output ends here
    } finally {
      lines.add(END);
    }
  }

  /** Kills the child if it still runs and deletes its standard error file. */
  @Override
  public void close() throws IOException {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    Files.deleteIfExists(stderr);
  }
}
