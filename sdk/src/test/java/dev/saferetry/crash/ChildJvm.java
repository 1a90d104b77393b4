package dev.saferetry.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a test class's {@code main} on the test classpath, driven line by line
 * through its standard input and output. Standard error goes to a file for post-mortems.
 *
 * <p>Not thread-safe: one test thread drives a child.
 */
public final class ChildJvm implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 30;

  private final Process process;
  private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(1024);
  private final Path stderr;

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    Thread reader = new Thread(this::pumpStdout, "child-stdout-" + process.pid());
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
    List<String> command = new ArrayList<>(wrapper);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xshare:auto");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(testClassPath());
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    Path stderr = Files.createTempFile("child-jvm", ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
            .start();
    return new ChildJvm(process, stderr);
  }

  /**
   * The classpath of the running tests. Surefire may launch its JVM through a manifest-only jar, in
   * which case {@code java.class.path} names only that jar; it then publishes the real path.
   */
  static String testClassPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  /**
   * Waits for the next line starting with {@code prefix} and returns it; fails on timeout or exit.
   */
  public String awaitLine(String prefix) throws InterruptedException, IOException {
    while (true) {
      String line = lines.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError(
            "child printed no '" + prefix + "' line in time; stderr:\n" + err());
      }
      if (line.startsWith(prefix)) {
        return line;
      }
      if (line.equals("<EOF>")) {
        throw new AssertionError(
            "child exited before '" + prefix + "' with " + waitForExit() + "; stderr:\n" + err());
      }
    }
  }

  /** Returns every line up to and including the next one starting with {@code prefix}. */
  public List<String> linesThrough(String prefix) throws InterruptedException, IOException {
    List<String> seen = new ArrayList<>();
    while (true) {
      String line = lines.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (line == null || line.equals("<EOF>")) {
        throw new AssertionError(
            "child printed no '" + prefix + "' line; saw " + seen + "; stderr:\n" + err());
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return seen;
      }
    }
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

  /** Waits for the child to exit and returns its exit value. */
  public int waitForExit() throws InterruptedException {
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child did not exit in time");
    }
    return process.exitValue();
  }

  /** What the child wrote to standard error so far. */
  public String err() throws IOException {
    return Files.readString(stderr, StandardCharsets.UTF_8);
  }

  private void pumpStdout() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.offer(line);
      }
    } catch (IOException e) {
      // the child was killed
    }
    lines.offer("<EOF>");
  }

  @Override
  public void close() throws IOException {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    Files.deleteIfExists(stderr);
  }
}
