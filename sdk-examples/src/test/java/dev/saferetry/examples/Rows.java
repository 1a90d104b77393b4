package dev.saferetry.examples;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.Sandbox;
import dev.saferetry.examples.demo.WireLog;
import dev.saferetry.testing.FakeTime;
import java.util.List;

/** Reads a scenario's wire log, and builds clients for tests that call an example directly. */
final class Rows {
  private Rows() {}

  static List<WireLog.Row> attempts(Report report) {
    return report.wire().stream().filter(WireLog.Row::isAttempt).toList();
  }

  static List<String> results(Report report) {
    return attempts(report).stream().map(WireLog.Row::result).toList();
  }

  static List<String> keys(Report report) {
    return attempts(report).stream().map(WireLog.Row::key).toList();
  }

  static List<String> notes(Report report) {
    return report.wire().stream().filter(r -> !r.isAttempt()).map(WireLog.Row::note).toList();
  }

  /** A builder as the examples' mains make it, against {@code api}, with fake time. */
  static SafeRetryClientBuilder client(String baseUrl, FakeTime time) {
    return SafeRetryClient.builder()
        .baseUrl(baseUrl)
        .apiKey("sk_test_demo")
        .clock(time)
        .sleeper(time);
  }

  static SafeRetryClientBuilder client(Sandbox api, FakeTime time) {
    return client(api.baseUrl(), time);
  }
}
