package dev.saferetry.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Drives {@link CrashAndRecover} as two real processes: starts the first, kills it (SIGKILL) once
 * its charge is on the wire, then starts the second to recover, and reads back what both did. Test
 * scaffolding; the code to copy is in {@link CrashAndRecover}.
 */
final class CrashDrill {
  static final String INTENT = "order-1004/charge";

  /** How long the server keeps working on the first request after its client died. */
  static final Duration SERVER_STILL_WORKING = Duration.ofMillis(1500);

  private CrashDrill() {}

  static Report run(Sandbox sandbox, PrintStream out) throws InterruptedException {
    String description = Sandbox.tag("crash-recover");
    Path dir = tempDir();
    List<WireLog.Row> rows = new ArrayList<>();
    int pendingFound = 0;
    int pendingLeft = 1;
    try {
      sandbox.delayNextCharge(SERVER_STILL_WORKING);
      try (ChildJvm first =
          ChildJvm.start(
              CrashAndRecover.class,
              "--charge",
              sandbox.baseUrl(),
              dir.toString(),
              INTENT,
              description)) {
        String[] started = first.awaitLine(l -> l.startsWith("STARTED|"), 60).split("\\|");
        first.awaitLine("SENT"::equals, 30);
        first.kill();
        rows.add(
            new WireLog.Row(
                INTENT,
                Integer.parseInt(started[1]),
                started[2],
                started[3],
                "KILLED",
                Duration.ZERO,
                false,
                null));
        rows.add(
            WireLog.Row.note(
                "process 1 killed (SIGKILL, exit "
                    + first.exitValue()
                    + ") mid-request; process 2 starts on the same key store"));
      }
      try (ChildJvm second =
          ChildJvm.start(
              CrashAndRecover.class, "--recover", sandbox.baseUrl(), dir.toString(), description)) {
        List<String> lines = second.finish(60);
        for (String line : lines) {
          String[] f = line.split("\\|");
          switch (f[0]) {
            case "PENDING" -> {
              pendingFound++;
              rows.add(WireLog.Row.note("process 2 found pending intent " + f[1]));
            }
            case "ROW" ->
                rows.add(
                    new WireLog.Row(
                        f[1],
                        Integer.parseInt(f[2]),
                        f[3],
                        f[4],
                        f[5],
                        Duration.ofMillis(Long.parseLong(f[6])),
                        f[7].equals("true"),
                        null));
            case "DONE" ->
                out.printf(
                    "  process 2 recovered charge %s (replayed by the server: " + "%s)%n",
                    f[2], f[3]);
            case "LEFT" -> pendingLeft = Integer.parseInt(f[1]);
            default -> out.println("  process 2: " + line);
          }
        }
        if (second.exitValue() != 0) {
          throw new IllegalStateException("recovery process failed, exit " + second.exitValue());
        }
      }
    } finally {
      deleteRecursively(dir);
    }
    int lost = pendingFound == 1 ? 0 : 1; // the crashed intent must be found pending
    return new Report(
        "crash-recover", 1, sandbox.sideEffects(description), pendingLeft + lost, rows);
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("saferetry-crash-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: it is a temp directory
    }
  }
}
