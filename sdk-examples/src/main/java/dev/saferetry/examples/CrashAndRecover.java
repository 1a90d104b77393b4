package dev.saferetry.examples;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.filestore.FileKeyStore;
import java.nio.file.Path;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;

/**
 * Crash and recover, run 1 of a service: records the charge's intent in a {@link FileKeyStore}
 * (fsync'd before the first byte is sent) and sends the charge; kill it (SIGKILL) once it printed
 * {@code request written}. Run 2, after the restart, is {@link RecoverPending} on the same store.
 *
 * <pre>
 * mvn ... exec:java -Dexec.mainClass=dev.saferetry.examples.CrashAndRecover \
 *     -Dexec.args="STORE-DIR [base-url]"
 * </pre>
 */
public final class CrashAndRecover {
  private CrashAndRecover() {}

  /** Your own records say what an order costs: a re-drive rebuilds the same payload from them. */
  static ChargeCreateParams chargeFor(String intentId) {
    return new ChargeCreateParams(7300, "eur", "order 1004", null);
  }

  /** {@code STORE-DIR [base-url]}: charges order 1004; prints when the request is on the wire. */
  public static void main(String[] args) {
    String baseUrl = args.length > 1 ? args[1] : "http://127.0.0.1:8080";
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
    try (FileKeyStore store = FileKeyStore.open(Path.of(args[0]));
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
          .create(chargeFor(intentId), RequestOptions.none().withIntentId(intentId));
      System.out.println("charged"); // not reached when the process is killed first
    }
  }
}
