package dev.saferetry.crash;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The application process of the crash tests: charges one order through a client with a file key
 * store, reporting on stdout where it is so the test can kill it at a precise point.
 *
 * <p>Arguments: store directory, base URL, {@link Mode}, intent id. Runs single-threaded.
 */
public final class CrashClientMain {
  /** Where the process stops and waits to be killed, or {@code REDRIVE} after a restart. */
  public enum Mode {
    /** Blocks once the intent's pending record is durable, before the request is sent. */
    HANG_BEFORE_SEND,
    /** Sends; the server holds the request, so the process waits for the response. */
    HANG_IN_FLIGHT,
    /** Blocks once the response arrived, before the store records the outcome. */
    HANG_BEFORE_COMPLETE,
    /** Lists the pending intents found on open, then re-drives the intent. */
    REDRIVE
  }

  static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "order 1", null);

  private CrashClientMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Mode mode = Mode.valueOf(args[2]);
    String intentId = args[3];
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(args[1])
                .keyStore(store)
                .listener(new StopAt(mode))
                .build()) {
      if (mode == Mode.REDRIVE) {
        for (IntentRecord r : client.pendingIntents()) {
          say("PENDING " + r.intentId() + " " + r.key() + " " + r.scope().operation());
        }
      }
      CallResult<Charge> result =
          new PaymentsClient(client)
              .charges()
              .create(PARAMS, RequestOptions.none().withIntentId(intentId));
      say("DONE " + result.key() + " " + result.value().id() + " " + result.replayed());
      say("PENDING_AFTER " + client.pendingIntents().size());
    }
  }

  static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private record StopAt(Mode mode) implements SafeRetryListener {
    @Override
    public void onAttemptStart(AttemptStarted e) {
      say("PENDING_DURABLE " + e.key());
      if (mode == Mode.HANG_BEFORE_SEND) {
        hangUntilKilled();
      }
    }

    @Override
    public void onAttemptEnd(AttemptFinished e) {
      say("RESPONSE " + e.key() + " " + e.attempt().status());
      if (mode == Mode.HANG_BEFORE_COMPLETE) {
        hangUntilKilled();
      }
    }

    private static void hangUntilKilled() {
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
