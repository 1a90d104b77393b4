package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.call.Attempt;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargesApi;
import dev.saferetry.payments.PaymentsClient;
import java.nio.file.Path;

/**
 * Crash and recover, run 2 of a service: opens the key store {@link CrashAndRecover} left behind,
 * lists the pending intents and re-drives each with its own payload and recorded key. The server
 * answers {@code 409} while the first request is still running, then replays the charge it made:
 * one charge.
 *
 * <pre>
 * mvn ... exec:java -Dexec.mainClass=dev.saferetry.examples.RecoverPending \
 *     -Dexec.args="STORE-DIR [base-url]"
 * </pre>
 */
public final class RecoverPending {
  private RecoverPending() {}

  /** {@code STORE-DIR [base-url]}: re-drives every pending intent, prints each attempt. */
  public static void main(String[] args) {
    String baseUrl = args.length > 1 ? args[1] : "http://127.0.0.1:8080";
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]));
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(baseUrl)
                .apiKey("sk_test_demo")
                .keyStore(store)
                .build()) {
      ChargesApi charges = new PaymentsClient(client).charges();
      for (IntentRecord pending : client.pendingIntents()) {
        System.out.printf("pending %s, key %s%n", pending.intentId(), pending.key());
        try {
          CallResult<Charge> done =
              charges.create(
                  CrashAndRecover.chargeFor(pending.intentId()),
                  RequestOptions.none().withRedrive(pending));
          for (Attempt a : done.attempts()) {
            System.out.printf(
                "  attempt %d: %s, request id %s, waited %d ms%n",
                a.number(),
                a.failure() != null ? a.failure() : "HTTP " + a.status(),
                a.requestId(),
                a.delayBefore().toMillis());
          }
          System.out.printf(
              "recovered %s: charge %s, key %s, replayed %s%n",
              pending.intentId(), done.value().id(), done.key(), done.replayed());
        } catch (SafeRetryException e) { // UNKNOWN stays pending for the next recovery run
          System.out.printf("not recovered %s: %s%n", pending.intentId(), e.outcome());
        }
      }
      System.out.println("pending left: " + client.pendingIntents().size());
    }
  }
}
