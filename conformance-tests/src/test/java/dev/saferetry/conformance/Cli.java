package dev.saferetry.conformance;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line run from tests: exit status and everything printed. */
record Cli(int status, String output) {

  static Cli run(Path reportDir, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--report-dir");
    all.add(reportDir.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        ConformanceRunner.execute(
            all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    String output = out.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    return new Cli(status, output);
  }
}
