package dev.saferetry.examples;

import dev.saferetry.Attempt;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.Charges;
import dev.saferetry.payments.PaymentsClient;
import java.nio.file.Path;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;

/**
 * Crash and recover: a first process records the intent in a {@link FileKeyStore} (fsync'd before
 * the first byte is sent), sends the charge and is killed (SIGKILL) while the server is still
 * working on it. A second process opens the same store, lists the pending intents and re-drives
 * each with its intent id and payload: the key is reused, so the server answers {@code 409} while
 * the first request is still running, then replays the charge it made — one charge, not two.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.CrashAndRecover
 * </pre>
 *
 * <p>The orchestration (two child JVMs and the kill) is in {@code CrashDrill}; this class holds
 * what the two processes of your service would do.
 */
public final class CrashAndRecover {
  private CrashAndRecover() {}

  /** Your own records say what an order costs: a re-drive rebuilds the same payload from them. */
  static ChargeCreateParams chargeFor(String intentId, String description) {
    return new ChargeCreateParams(7300, "eur", description, null);
  }

  static SafeRetryClientBuilder client(
      String baseUrl, FileKeyStore store, SafeRetryListener listener) {
    return SafeRetryClient.builder()
        .baseUrl(baseUrl)
        .apiKey("sk_test_demo")
        .keyStore(store)
        .listener(listener);
  }

  /** Process 1: charges one order, reporting on stdout once the request is on the wire. */
  static void charge(String baseUrl, Path dir, String intentId, String description) {
    SafeRetryListener started =
        new SafeRetryListener() {
          @Override
          public void onAttemptStart(AttemptStarted e) { // the key is on disk by now
            System.out.println("STARTED|" + e.attempt() + "|" + e.key() + "|" + e.requestId());
          }
        };
    OkHttpClient http =
        new OkHttpClient.Builder()
            .eventListener(
                new EventListener() {
                  @Override
                  public void requestBodyEnd(Call call, long bytes) {
                    System.out.println("SENT"); // the whole request is written: kill us now
                  }
                })
            .build();
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient client = client(baseUrl, store, started).okHttpClient(http).build()) {
      new PaymentsClient(client)
          .charges()
          .create(
              chargeFor(intentId, description),
              RequestOptions.builder().intentId(intentId).build());
      System.out.println("FINISHED"); // not reached: the process is killed first
    }
  }

  /** Process 2: after a restart, re-drives every pending intent with its own payload. */
  static void recover(String baseUrl, Path dir, String description) {
    SafeRetryListener rows =
        new SafeRetryListener() {
          private volatile boolean hinted;

          @Override
          public void onRetryScheduled(RetryScheduled e) {
            hinted = e.serverHint();
          }

          @Override
          public void onAttemptEnd(AttemptFinished e) {
            Attempt a = e.attempt();
            System.out.println(
                "ROW|"
                    + e.intentId()
                    + "|"
                    + a.number()
                    + "|"
                    + e.key()
                    + "|"
                    + a.requestId()
                    + "|"
                    + a.status()
                    + "|"
                    + a.delayBefore().toMillis()
                    + "|"
                    + (a.number() > 1 && hinted));
          }
        };
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient client = client(baseUrl, store, rows).build()) {
      Charges charges = new PaymentsClient(client).charges();
      for (IntentRecord pending : client.pendingIntents()) {
        System.out.println("PENDING|" + pending.intentId() + "|" + pending.key());
        try {
          CallResult<Charge> done =
              charges.create(
                  chargeFor(pending.intentId(), description),
                  RequestOptions.builder().redrive(pending).build()); // its recorded key
          System.out.println(
              "DONE|" + done.key() + "|" + done.value().id() + "|" + done.replayed());
        } catch (SafeRetryException e) { // UNKNOWN stays pending for the next recovery run
          System.out.println("NOT DONE|" + pending.intentId() + "|" + e.outcome());
        }
      }
      System.out.println("LEFT|" + client.pendingIntents().size());
    }
  }

  /**
   * Runs the whole drill against an in-process server, or the base URL given as argument. The child
   * processes are started as {@code CrashAndRecover --charge ...} and {@code --recover ...}.
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 5 && args[0].equals("--charge")) {
      charge(args[1], Path.of(args[2]), args[3], args[4]);
    } else if (args.length == 4 && args[0].equals("--recover")) {
      recover(args[1], Path.of(args[2]), args[3]);
    } else {
      try (Sandbox sandbox = Sandbox.fromArgs(args, 0)) {
        Report report = CrashDrill.run(sandbox, System.out);
        report.print(System.out);
        System.out.println(report.verdict());
      }
    }
  }
}
