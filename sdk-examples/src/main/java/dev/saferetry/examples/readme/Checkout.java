package dev.saferetry.examples.readme;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import java.nio.file.Path;

public class Checkout {
  public static void main(String[] args) {
    // Keys on disk, in a directory you created for them (mkdir -m 700 saferetry-keys).
    try (FileKeyStore keys = FileKeyStore.open(Path.of("saferetry-keys"));
        // One client per API, shared by the whole service; the API key is never logged.
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(System.getenv("PAYMENTS_API_URL"))
                .apiKey(System.getenv("PAYMENTS_API_KEY"))
                .keyStore(keys) // without this line keys live in memory: a restart forgets them
                .build()) {
      PaymentsClient payments = new PaymentsClient(client);
      // The intent id names the logical operation: every call with it reuses one key, also after
      // a restart, because the key is on disk before the first byte is sent.
      RequestOptions intent = RequestOptions.none().withIntentId("order-123/charge");
      ChargeCreateParams params =
          ChargeCreateParams.builder()
              .amount(1999L)
              .currency("eur")
              .description("order 123")
              .build();
      try {
        CallResult<Charge> charge = payments.charges().create(params, intent);
        System.out.println("charged " + charge.value().id() + " with key " + charge.key());
      } catch (OutcomeUnknownException e) {
        // UNKNOWN: the charge may exist. Retry the same intent later (same key, at most one
        // charge), unless only the provider can tell: then look the charge up there.
        String next = e.reason().mustReconcile() ? "reconcile" : "retry later";
        System.out.println(next + ": " + e.reason() + ", key " + e.key());
      } catch (CallFailedException e) {
        // FAILED: nothing was charged (declined, invalid, unauthorised, or never sent).
        System.out.println("not charged: " + e.reason() + " " + e.getMessage());
      } catch (ResponseBodyException e) {
        // SUCCEEDED, but the body was unreadable: the charge exists; the same intent replays it.
        System.out.println("charged; the answer was unreadable: " + e.reason());
      }
    }
  }
}
