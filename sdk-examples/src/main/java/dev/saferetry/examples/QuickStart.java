package dev.saferetry.examples;

import dev.saferetry.Attempt;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import java.io.PrintStream;

/**
 * Quick start: create a charge as a named intent, read it back, and print the idempotency key, the
 * attempts and their request ids.
 *
 * <p>Run it against an in-process reference server, or against a base URL:
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.QuickStart
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.QuickStart \
 *     -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class QuickStart {
  private QuickStart() {}

  /** Creates and reads back one charge against {@code sandbox}, printing to {@code out}. */
  public static Report run(Sandbox sandbox, PrintStream out) {
    String description = Sandbox.tag("quick-start");
    WireLog wire = new WireLog();
    // One client per API, shared by the whole service; close it on shutdown.
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .baseUrl(sandbox.baseUrl())
            .apiKey("sk_test_demo")
            .listener(wire)
            .build()) {
      PaymentsClient payments = new PaymentsClient(client);

      // The intent id names the logical operation: calling again with it reuses the same key.
      CallResult<Charge> created =
          payments
              .charges()
              .create(
                  new ChargeCreateParams(1999, "eur", description, null),
                  RequestOptions.builder().intentId("order-1001/charge").build());
      Charge charge = created.value();
      out.printf(
          "  created %s: %d %s, status %s%n",
          charge.id(), charge.amount(), charge.currency(), charge.status());
      out.printf(
          "  idempotency key %s, %d attempt(s), replayed=%s%n",
          created.key().value(), created.attempts().size(), created.replayed());
      for (Attempt a : created.attempts()) {
        out.printf(
            "    attempt %d: HTTP %d, request id %s, server request id %s%n",
            a.number(), a.status(), a.requestId(), a.serverRequestId());
      }

      // GETs are naturally idempotent: they carry no key and need no intent.
      CallResult<Charge> read = payments.charges().retrieve(charge.id());
      out.printf(
          "  read back %s (%s), server request id %s%n",
          read.value().id(), read.value().status(), read.serverRequestId());
      if (!read.value().id().equals(charge.id())) {
        throw new IllegalStateException("read back another charge: " + read.value().id());
      }
      return new Report(
          "quick-start",
          1,
          sandbox.sideEffects(description),
          client.pendingIntents().size(),
          wire.rows());
    }
  }

  /** Runs the example; the optional argument is the base URL of a reference server. */
  public static void main(String[] args) {
    try (Sandbox sandbox = Sandbox.fromArgs(args, 0)) {
      Report report = run(sandbox, System.out);
      System.out.println(report.verdict());
    }
  }
}
