package dev.saferetry.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One worker slot of the soak: a command line (its store directory and slice of intents never
 * change) and the current child process, which can be SIGKILLed and started again. A reader thread
 * feeds the child's stdout lines to the shared {@link Progress}; stderr goes to a log file.
 *
 * <p>Used by the coordinator thread only, apart from the reader threads it starts.
 */
final class WorkerHandle {
  private final int index;
  private final List<String> command;
  private final Path log;
  private final Progress progress;
  private Process process;
  private Thread reader;
  private volatile boolean finished;
  private int starts;
  private Long notBefore;
  private boolean killed;

  WorkerHandle(int index, List<String> command, Path log, Progress progress) {
    this.index = index;
    this.command = List.copyOf(command);
    this.log = log;
    this.progress = progress;
  }

  /** Starts (or restarts) the child process. */
  void start() throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process p = pb.start();
    p.getOutputStream().close();
    process = p;
    starts++;
    reader = new Thread(() -> read(p), "soak-reader-" + index + "-" + starts);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(Process p) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        try {
          if (progress.accept(line)) {
            finished = true;
          }
        } catch (RuntimeException e) {
          // A line cut short by SIGKILL: the next start reports that intent again.
        }
      }
    } catch (IOException e) {
      // The process was killed: its pipe ends.
    }
  }

  /** Kills the child with SIGKILL and waits until it and its output are gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    reader.join(10_000);
  }

  /** Records that the chaos schedule (not the end of the run) killed this worker. */
  void markKilled() {
    killed = true;
  }

  /** Whether the chaos schedule ever killed this worker's process. */
  boolean wasKilled() {
    return killed;
  }

  /** Holds the next start back for {@code delay}. */
  void restartAfter(Duration delay) {
    notBefore = System.nanoTime() + delay.toNanos();
  }

  /** Whether a restart is no longer held back. */
  boolean mayStart() {
    return notBefore == null || System.nanoTime() - notBefore >= 0;
  }

  /** Whether the child process is running. */
  boolean alive() {
    return process != null && process.isAlive();
  }

  /** Whether the worker reported that its whole slice is resolved. */
  boolean finished() {
    return finished;
  }

  /** Waits for the reader after the process exited on its own, so no line is missed. */
  void drain() throws InterruptedException {
    if (reader != null) {
      reader.join(10_000);
    }
  }

  int index() {
    return index;
  }

  Path log() {
    return log;
  }

  /** Exit code of the last process, or -1 while it runs. */
  int exitCode() {
    return process == null || process.isAlive() ? -1 : process.exitValue();
  }
}
