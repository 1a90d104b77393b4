package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Outcome;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.testing.Answers;
import java.nio.file.Path;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A definitive answer is never turned into an error by the key store: when its completion cannot be
 * recorded, the caller still gets the result (or the typed outcome it earned), a WARN names the
 * key, and the intent stays pending so that a re-drive replays it with the same key.
 */
class CompletionNotRecordedTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");
  private static final String OP = Charges.CREATE.name();

  @TempDir Path dir;

  private static RequestOptions intent(String id) {
    return RequestOptions.none().withIntentId(id);
  }

  @Test
  void aStoreClosedWhileTheCallIsInFlightStillReturnsTheCharge() throws Exception {
    FileKeyStore store = FileKeyStore.open(dir);
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            store.close(); // e.g. the application shuts down while the charge is in flight
            return charge();
          }
        });
    CallResult<Charge> result;
    try (LogCapture log = new LogCapture();
        SafeRetryClient c = builder().keyStore(store).build()) {
      result = call(c, Charges.CREATE, PARAMS, intent("order-1/charge"));
      assertThat(result.status()).isEqualTo(200);
      assertThat(result.value().id()).isEqualTo("ch_1");
      assertThat(log.linesWith("WARN"))
          .anySatisfy(
              line -> assertThat(line).contains(result.key().value()).contains("stays pending"));
    }
    try (FileKeyStore reopened = FileKeyStore.open(dir)) {
      assertThat(reopened.pending())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.intentId()).isEqualTo("order-1/charge");
                assertThat(r.key()).isEqualTo(result.key());
              });
    }
  }

  @Test
  void aResourceIdTooLargeForARecordIsStoredAsAbsent() throws Exception {
    String hugeId = "ch_" + "x".repeat(70 * 1024);
    server.enqueue(json(200, Answers.CHARGE_JSON.replace("\"ch_1\"", "\"" + hugeId + "\"")));
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      CallResult<Charge> result = call(c, Charges.CREATE, PARAMS, intent("order-2/charge"));
      assertThat(result.value().id()).isEqualTo(hugeId);
      IntentRecord stored =
          store.find(new IntentScope(IntentScope.DEFAULT_TENANT, OP), "order-2/charge").get();
      assertThat(stored.state()).isEqualTo(IntentState.SUCCEEDED);
      assertThat(stored.status()).isEqualTo(200);
      assertThat(stored.resourceId()).isNull();
    }
    try (FileKeyStore reopened = FileKeyStore.open(dir)) {
      assertThat(reopened.pending()).isEmpty();
    }
  }

  @Test
  void aResourceIdThatCannotRoundTripIsStoredAsAbsent() throws Exception {
    server.enqueue(json(200, Answers.CHARGE_JSON.replace("\"ch_1\"", "\"ch_\\ud800\\n1\"")));
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      CallResult<Charge> result = call(c, Charges.CREATE, PARAMS, intent("order-3/charge"));
      assertThat(result.value().id()).isEqualTo("ch_\ud800\n1");
      IntentRecord stored =
          store.find(new IntentScope(IntentScope.DEFAULT_TENANT, OP), "order-3/charge").get();
      assertThat(stored.state()).isEqualTo(IntentState.SUCCEEDED);
      assertThat(stored.resourceId()).isNull();
    }
  }

  @Test
  void aStoreThatThrowsOnCompleteNeverHidesTheAnswer() {
    KeyStore inner = KeyStore.inMemory();
    KeyStore failing = new ThrowingOnComplete(inner);
    server.enqueue(charge());
    server.enqueue(json(402, "{\"error\":{\"type\":\"card_error\",\"code\":\"card_declined\"}}"));
    server.enqueue(json(200, "not json"));
    try (LogCapture log = new LogCapture();
        SafeRetryClient c = builder().keyStore(failing).build()) {
      CallResult<Charge> ok = call(c, Charges.CREATE, PARAMS, intent("a"));
      assertThat(ok.status()).isEqualTo(200);
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS, intent("b")))
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(402));
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS, intent("c")))
          .isInstanceOfSatisfying(
              ResponseBodyException.class,
              e -> assertThat(e.outcome()).isEqualTo(Outcome.SUCCEEDED));
      assertThat(log.linesWith("WARN")).anyMatch(l -> l.contains(ok.key().value()));
    }
    assertThat(inner.pending())
        .extracting(IntentRecord::intentId)
        .containsExactlyInAnyOrder("a", "b", "c");
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  /** A store whose disk has failed for appends after the intent's record was made durable. */
  private static final class ThrowingOnComplete extends ForwardingKeyStore {
    ThrowingOnComplete(KeyStore inner) {
      super(inner);
    }

    @Override
    public void complete(IntentRecord completed) {
      throw new KeyStoreException("No space left on device (simulated by the store)");
    }
  }
}
