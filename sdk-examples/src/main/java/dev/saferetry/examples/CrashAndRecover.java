package dev.saferetry.examples;

import dev.saferetry.Attempt;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.examples.payments.PaymentsClient;
import java.nio.file.Path;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;

/**
 * Crash and recover, as two runs of one service. {@code charge} records the intent in a {@link
 * FileKeyStore} (fsync'd before the first byte is sent) and sends the charge; kill it (SIGKILL)
 * once it printed {@code request written}. {@code recover} opens the same store after the restart,
 * lists the pending intents and re-drives each with its recorded key: the server answers {@code
 * 409} while the first request is still running, then replays the charge it made. One charge.
 *
 * <pre>
 * mvn ... exec:java -Dexec.mainClass=dev.saferetry.examples.CrashAndRecover \
 *     -Dexec.args="charge|recover STORE-DIR [base-url]"
 * </pre>
 */
public final class CrashAndRecover {
  private CrashAndRecover() {}

  /** Your own records say what an order costs: a re-drive rebuilds the same payload from them. */
  static ChargeCreateParams chargeFor(String intentId) {
    return new ChargeCreateParams(7300, "eur", "order 1004", null);
  }

  /** Run 1: charges order 1004; prints when the request is on the wire. */
  static void charge(String baseUrl, Path dir) {
    SafeRetryListener started =
        new SafeRetryListener() {
          @Override
          public void onAttemptStart(AttemptStarted e) { // the key is on disk by now
            System.out.printf(
                "sending attempt %d of %s, key %s, request id %s%n",
                e.attempt(), e.intentId(), e.key(), e.requestId());
          }
        };
    EventListener written =
        new EventListener() {
          @Override
          public void requestBodyEnd(Call call, long bytes) {
            System.out.println("request written");
          }
        };
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(baseUrl)
                .apiKey("sk_test_demo")
                .keyStore(store)
                .listener(started)
                .okHttpClient(new OkHttpClient.Builder().eventListener(written).build())
                .build()) {
      String intentId = "order-1004/charge";
      new PaymentsClient(client)
          .charges()
          .create(chargeFor(intentId), RequestOptions.builder().intentId(intentId).build());
      System.out.println("charged"); // not reached when the process is killed first
    }
  }

  /** Run 2: re-drives every pending intent with its own payload and recorded key. */
  static void recover(String baseUrl, Path dir) {
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(baseUrl)
                .apiKey("sk_test_demo")
                .keyStore(store)
                .build()) {
      Charges charges = new PaymentsClient(client).charges();
      for (IntentRecord pending : client.pendingIntents()) {
        System.out.printf("pending %s, key %s%n", pending.intentId(), pending.key());
        try {
          CallResult<Charge> done =
              charges.create(
                  chargeFor(pending.intentId()), RequestOptions.builder().redrive(pending).build());
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

  /** {@code charge|recover STORE-DIR [base-url]}. */
  public static void main(String[] args) {
    if (args.length < 2 || !args[0].matches("charge|recover")) {
      throw new IllegalArgumentException("usage: charge|recover STORE-DIR [base-url]");
    }
    String baseUrl = args.length > 2 ? args[2] : "http://127.0.0.1:8080";
    if (args[0].equals("charge")) {
      charge(baseUrl, Path.of(args[1]));
    } else {
      recover(baseUrl, Path.of(args[1]));
    }
  }
}
