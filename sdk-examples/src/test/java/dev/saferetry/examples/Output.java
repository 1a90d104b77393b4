package dev.saferetry.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Captures what an example prints, and helpers over its wire log. */
final class Output {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  static List<WireLog.Row> attempts(Report report) {
    return report.wire().stream().filter(WireLog.Row::isAttempt).toList();
  }

  static List<String> results(Report report) {
    return attempts(report).stream().map(WireLog.Row::result).toList();
  }

  static List<String> notes(Report report) {
    return report.wire().stream().filter(r -> !r.isAttempt()).map(WireLog.Row::note).toList();
  }
}
