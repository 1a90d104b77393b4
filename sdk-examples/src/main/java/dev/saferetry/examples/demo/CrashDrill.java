package dev.saferetry.examples.demo;

import dev.saferetry.examples.CrashAndRecover;
import dev.saferetry.examples.RecoverPending;
import dev.saferetry.testing.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the crash examples as two real processes: starts {@link CrashAndRecover}, kills it (SIGKILL)
 * once its request is on the wire, then starts {@link RecoverPending} on the same key store, and
 * reads back what both printed. The server holds the first request for a while, so the re-drive
 * meets it still in progress ({@code 409}) before the stored charge is replayed.
 */
public final class CrashDrill {
  /** The intent the example charges. */
  public static final String INTENT = "order-1004/charge";

  /** How long the server keeps working on the first request after its client died. */
  static final Duration SERVER_STILL_WORKING = Duration.ofMillis(1500);

  private static final Pattern WRITTEN = Pattern.compile("request written (\\S+)");
  private static final Pattern ATTEMPT =
      Pattern.compile(" *attempt (\\d+): (?:HTTP )?(\\S+), request id (\\S+), waited (\\d+) ms");
  private static final Pattern RECOVERED =
      Pattern.compile("recovered (\\S+): charge (\\S+), key (\\S+), replayed (\\S+)");

  private CrashDrill() {}

  /**
   * Runs the drill against a fresh in-process server; prints the children's output to {@code out}.
   */
  public static Report run(PrintStream out) throws IOException, InterruptedException {
    Path dir = tempDir();
    try (Sandbox api = Sandbox.start()) {
      api.delayNextCharge(SERVER_STILL_WORKING);
      List<WireLog.Row> rows = new ArrayList<>();
      try (ChildJvm first = ChildJvm.start(CrashAndRecover.class, dir.toString(), api.baseUrl())) {
        // The first attempt's request is on the wire, with the key process 1 recorded on disk.
        Matcher m = WRITTEN.matcher(first.awaitLine(l -> WRITTEN.matcher(l).matches(), 60));
        m.matches();
        first.kill();
        rows.add(row(INTENT, "1", m.group(1), "-", "KILLED", "0"));
        rows.add(
            WireLog.Row.note(
                "process 1 killed (SIGKILL, exit "
                    + first.exitValue()
                    + ") mid-request; process 2 starts on the same key store"));
      }
      int pendingFound = 0;
      int pendingLeft = 1;
      try (ChildJvm second = ChildJvm.start(RecoverPending.class, dir.toString(), api.baseUrl())) {
        List<WireLog.Row> attempts = new ArrayList<>();
        for (String line : second.finish(60)) {
          out.println("  process 2: " + line);
          Matcher a = ATTEMPT.matcher(line);
          Matcher r = RECOVERED.matcher(line);
          if (line.startsWith("pending " + INTENT)) {
            pendingFound++;
            rows.add(WireLog.Row.note("process 2 found pending intent " + INTENT));
          } else if (a.matches()) {
            attempts.add(row(INTENT, a.group(1), null, a.group(3), a.group(2), a.group(4)));
          } else if (r.matches()) {
            attempts.forEach(x -> rows.add(withKey(x, r.group(3))));
          } else if (line.startsWith("pending left: ")) {
            pendingLeft = Integer.parseInt(line.substring("pending left: ".length()));
          }
        }
        if (second.exitValue() != 0) {
          throw new IllegalStateException("recovery process failed, exit " + second.exitValue());
        }
      }
      int lost = pendingFound == 1 ? 0 : 1; // the crashed intent must be found pending
      return new Report("crash-recover", 1, api.sideEffects(), pendingLeft + lost, rows);
    } finally {
      deleteRecursively(dir);
    }
  }

  private static WireLog.Row row(
      String intent, String n, String key, String requestId, String result, String waitedMs) {
    return new WireLog.Row(
        intent,
        Integer.parseInt(n),
        key,
        requestId,
        result,
        Duration.ofMillis(Long.parseLong(waitedMs)),
        false,
        null);
  }

  private static WireLog.Row withKey(WireLog.Row r, String key) {
    return new WireLog.Row(
        r.intentId(),
        r.attempt(),
        key,
        r.requestId(),
        r.result(),
        r.delayBefore(),
        r.serverHint(),
        null);
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
