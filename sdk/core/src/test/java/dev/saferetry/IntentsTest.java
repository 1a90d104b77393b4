package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Outcome;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class IntentsTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);

  private static RequestOptions intent(String id) {
    return RequestOptions.none().withIntentId(id);
  }

  @Test
  void anUnknownOutcomeLeavesTheIntentPendingAndTheNextCallReusesItsKey() throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(503));
    }
    OutcomeUnknownException unknown =
        org.junit.jupiter.api.Assertions.assertThrows(
            OutcomeUnknownException.class,
            () -> call(client, Charges.CREATE, PARAMS, intent("order-1/charge")));

    List<IntentRecord> pending = client.pendingIntents();
    assertThat(pending)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.intentId()).isEqualTo("order-1/charge");
              assertThat(r.key()).isEqualTo(unknown.key());
              assertThat(r.scope().operation()).isEqualTo("POST /v1/charges");
              assertThat(r.fingerprint()).hasSize(64);
            });

    server.enqueue(charge());
    CallResult<Charge> later = call(client, Charges.CREATE, PARAMS, intent("order-1/charge"));
    assertThat(later.key()).isEqualTo(unknown.key());
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .hasSize(5)
        .containsOnly(unknown.key().value());
    assertThat(client.pendingIntents()).isEmpty();
    assertThat(client.keyStore().find(pending.get(0).scope(), "order-1/charge"))
        .hasValueSatisfying(
            r -> {
              assertThat(r.state()).isEqualTo(IntentState.SUCCEEDED);
              assertThat(r.status()).isEqualTo(200);
              assertThat(r.resourceId()).isEqualTo("ch_1");
            });
  }

  @Test
  void aSucceededIntentIsResentWithTheSameKeySoTheServerReplays() throws Exception {
    server.enqueue(charge());
    server.enqueue(charge());
    CallResult<Charge> first = call(client, Charges.CREATE, PARAMS, intent("o-2"));
    CallResult<Charge> again = call(client, Charges.CREATE, PARAMS, intent("o-2"));
    assertThat(again.key()).isEqualTo(first.key());
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void sameIntentWithAnotherPayloadFailsBeforeAnyIo() {
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS, intent("o-3"));
    assertThatThrownBy(
            () ->
                call(
                    client,
                    Charges.CREATE,
                    new ChargeCreateParams(2000, "eur", "o", null),
                    intent("o-3")))
        .isInstanceOfSatisfying(
            CallFailedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.INTENT_MISMATCH);
              assertThat(e.attempts()).isEmpty();
              assertThat(e.intentId()).isEqualTo("o-3");
            });
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void theCallersOwnKeyWithAnotherPayloadForTheSameIntentFailsBeforeAnyIo() {
    server.enqueue(charge());
    RequestOptions withKey =
        RequestOptions.none().withIntentId("o-own").withIdempotencyKey("own-key-1");
    call(client, Charges.CREATE, PARAMS, withKey);
    time.advance(Duration.ofSeconds(1));
    assertThatThrownBy(
            () ->
                call(client, Charges.CREATE, new ChargeCreateParams(5, "eur", "o", null), withKey))
        .isInstanceOfSatisfying(
            CallFailedException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_MISMATCH));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void anotherKeyForARecordedIntentIsATypedFailureBeforeAnyIo() {
    server.enqueue(charge());
    CallResult<?> first =
        call(
            client,
            Charges.CREATE,
            PARAMS,
            RequestOptions.none().withIntentId("o-keyed").withIdempotencyKey("key-a"));
    assertThatThrownBy(
            () ->
                call(
                    client,
                    Charges.CREATE,
                    PARAMS,
                    RequestOptions.none().withIntentId("o-keyed").withIdempotencyKey("key-b")))
        .isInstanceOfSatisfying(
            CallFailedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.INTENT_KEY_CONFLICT);
              assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
              assertThat(e.key()).isEqualTo(first.key());
              assertThat(e.attempts()).isEmpty();
            });
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void keyOrderAndFormattingDoNotChangeTheIntentsFingerprint() throws Exception {
    Operation<Object, Object> op = Operation.post("/v1/things", Object.class, Object.class);
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("b", 1);
    a.put("a", Map.of("y", 2, "x", List.of(1, 2)));
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("a", Map.of("x", List.of(1, 2), "y", 2));
    b.put("b", 1);
    server.enqueue(status(503));
    server.enqueue(charge());
    server.enqueue(charge());
    CallResult<Object> first = call(client, op, a, intent("t-1"));
    CallResult<Object> second = call(client, op, b, intent("t-1"));
    assertThat(second.key()).isEqualTo(first.key());
  }

  /**
   * The current fingerprint is the only one: an intent recorded with another form of the same
   * request's identity (here the hash of {@code "POST /v1/charges\n"} and its JSON, which
   * development builds recorded) is a mismatch, refused without a byte sent.
   */
  @Test
  void anIntentRecordedWithAnotherFingerprintFormOfTheSameRequestIsAMismatch() {
    KeyStore store = KeyStore.inMemory();
    SafeRetryClient withStore = builder().keyStore(store).build();
    store.begin(
        IntentRecord.pending(
            new IntentScope(IntentScope.DEFAULT_TENANT, "POST /v1/charges"),
            "o-other-form",
            IdempotencyKey.random(),
            "89e21e4536da58d34ed8fa2fc18d12147a248ba7fceffd632385f50b6ecc0dc2",
            time.instant(),
            Duration.ofHours(24)));
    ChargeCreateParams same = new ChargeCreateParams(500, "usd", "Tee", null);
    assertThatThrownBy(() -> call(withStore, Charges.CREATE, same, intent("o-other-form")))
        .isInstanceOfSatisfying(
            CallFailedException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_MISMATCH));
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void concurrentCallsOfOneIntentShareOneKey() {
    for (int i = 0; i < 8; i++) {
      server.enqueue(charge());
    }
    List<CompletableFuture<CallResult<Charge>>> calls = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      calls.add(client.executeAsync(Charges.CREATE, PARAMS, intent("o-race")));
    }
    assertThat(calls.stream().map(f -> f.join().key()).distinct()).hasSize(1);
  }

  @Test
  void anExpiredPendingIntentIsNotResentWithItsStaleKey() {
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(500));
    }
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS, intent("o-old")))
        .isInstanceOf(OutcomeUnknownException.class);
    time.advance(Duration.ofHours(25));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS, intent("o-old")))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED);
              assertThat(e.isOutcomeUnknown()).isTrue();
              assertThat(e.getMessage()).contains("reconcile");
              assertThat(e.attempts()).isEmpty();
            });
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @Test
  void anExpiredCompletedIntentIsTreatedAsNew() {
    server.enqueue(charge());
    server.enqueue(charge());
    CallResult<Charge> first = call(client, Charges.CREATE, PARAMS, intent("o-day"));
    time.advance(Duration.ofHours(25));
    CallResult<Charge> next = call(client, Charges.CREATE, PARAMS, intent("o-day"));
    assertThat(next.key()).isNotEqualTo(first.key());
  }

  @Test
  void abandoningAnIntentMintsANewKeyNextTime() {
    server.enqueue(status(400));
    server.enqueue(charge());
    try (SafeRetryClient c = builder().retryPolicy(RetryPolicy.noRetries()).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS, intent("o-5")))
          .isInstanceOf(RuntimeException.class);
      var scope = new dev.saferetry.idempotency.IntentScope("default", "POST /v1/charges");
      IntentRecord failed = c.keyStore().find(scope, "o-5").orElseThrow();
      assertThat(failed.state()).isEqualTo(IntentState.FAILED);
      var key = failed.key();
      assertThat(c.abandonIntent(Charges.CREATE, "o-5")).isTrue();
      assertThat(call(c, Charges.CREATE, PARAMS, intent("o-5")).key()).isNotEqualTo(key);
    }
  }

  @Test
  void theResourceIdIsRecordedForRecordsAndTreesAndANullIdIsNone() {
    server.enqueue(charge());
    server.enqueue(Answers.json(201, "{\"id\":\"th_9\",\"n\":1}"));
    server.enqueue(Answers.json(201, "{\"id\":null}"));
    Operation<Object, Object> things = Operation.post("/v1/things", Object.class, Object.class);
    call(client, Charges.CREATE, PARAMS, intent("rid-record"));
    call(client, things, Map.of("n", 1), intent("rid-tree"));
    call(client, things, Map.of("n", 2), intent("rid-null"));
    var charges = new dev.saferetry.idempotency.IntentScope("default", "POST /v1/charges");
    var other = new dev.saferetry.idempotency.IntentScope("default", "POST /v1/things");
    assertThat(client.keyStore().find(charges, "rid-record").orElseThrow().resourceId())
        .isEqualTo("ch_1");
    assertThat(client.keyStore().find(other, "rid-tree").orElseThrow().resourceId())
        .isEqualTo("th_9");
    assertThat(client.keyStore().find(other, "rid-null").orElseThrow().resourceId()).isNull();
  }

  @Test
  void intentsAreScopedByTenant() {
    server.enqueue(charge());
    server.enqueue(charge());
    dev.saferetry.idempotency.KeyStore shared = dev.saferetry.idempotency.KeyStore.inMemory();
    try (SafeRetryClient a = builder().keyStore(shared).tenant("merchant-a").build();
        SafeRetryClient b = builder().keyStore(shared).tenant("merchant-b").build()) {
      assertThat(a.execute(Charges.CREATE, PARAMS, intent("same-id")).key())
          .isNotEqualTo(b.execute(Charges.CREATE, PARAMS, intent("same-id")).key());
    }
  }
}
