package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.dropAfterRequest;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Attempt;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.testing.Answers;
import java.util.List;
import java.util.UUID;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class KeyPerIntentTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "EUR", "o-1", null);

  @Test
  void retriesReuseTheIdempotencyKeyAndTheExactBytes() throws Exception {
    server.enqueue(status(503));
    server.enqueue(dropAfterRequest());
    server.enqueue(charge());

    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    List<RecordedRequest> requests = drain(server);
    assertThat(requests).hasSize(3);
    assertThat(Answers.keys(requests, "Idempotency-Key")).containsOnly(result.key().value());
    assertThat(requests)
        .extracting(r -> r.getBody().utf8())
        .containsOnly(requests.get(0).getBody().utf8());
    assertThat(result.attempts()).hasSize(3);
    assertThat(result.attempts()).extracting(Attempt::number).containsExactly(1, 2, 3);
  }

  @Test
  void mintedKeyIsARandomUuidVersion4() throws Exception {
    server.enqueue(charge());
    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    UUID uuid = UUID.fromString(result.key().value());
    assertThat(uuid.version()).isEqualTo(4);
    assertThat(uuid.variant()).isEqualTo(2);
    assertThat(drain(server).get(0).getHeaders().get("Idempotency-Key"))
        .isEqualTo(result.key().value());
  }

  @Test
  void aSecondOperationGetsANewKey() throws Exception {
    server.enqueue(charge());
    server.enqueue(charge());

    CallResult<?> first = call(client, Charges.CREATE, PARAMS);
    CallResult<?> second = call(client, Charges.CREATE, PARAMS);

    assertThat(first.key()).isNotEqualTo(second.key());
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .containsExactly(first.key().value(), second.key().value());
  }

  @Test
  void callerSuppliedKeyWinsOnEveryAttempt() throws Exception {
    server.enqueue(status(500));
    server.enqueue(charge());
    RequestOptions options = RequestOptions.none().withIdempotencyKey("order-77-charge");

    CallResult<?> result = call(client, Charges.CREATE, PARAMS, options);

    assertThat(result.key().value()).isEqualTo("order-77-charge");
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .containsExactly("order-77-charge", "order-77-charge");
  }

  @Test
  void derivedOptionsDoNotCopyTheKey() {
    RequestOptions options =
        RequestOptions.none()
            .withIdempotencyKey("k-1")
            .withIntentId("i-1")
            .withHeader("X-Tenant", "t");
    RequestOptions derived = options.withoutIdentity();
    assertThat(derived.idempotencyKey()).isNull();
    assertThat(derived.intentId()).isNull();
    assertThat(derived.headers()).containsEntry("X-Tenant", "t");
  }

  @Test
  void malformedCallerKeysAreRejectedBeforeAnyIo() {
    KeyStore store = KeyStore.inMemory();
    String tooLong = "k".repeat(256);
    try (SafeRetryClient c = builder().keyStore(store).build()) {
      int n = 0;
      for (String bad :
          new String[] {"", "has space", "line\r\nInjected: 1", tooLong, "tab\t", "é", "\uD800"}) {
        String intent = "order-" + n++;
        // The whole call, as a caller writes it: the bad key stops it before the store or wire.
        assertThatThrownBy(
                () ->
                    call(
                        c,
                        Charges.CREATE,
                        PARAMS,
                        RequestOptions.none().withIntentId(intent).withIdempotencyKey(bad)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("idempotency key");
      }
      assertThat(server.getRequestCount()).isZero();
      assertThat(store.pending()).isEmpty();

      // The longest valid key goes through: the counters above could have moved.
      server.enqueue(charge());
      String longest = "k".repeat(255);
      CallResult<?> ok =
          call(
              c,
              Charges.CREATE,
              PARAMS,
              RequestOptions.none().withIntentId("order-ok").withIdempotencyKey(longest));
      assertThat(ok.key().value()).isEqualTo(longest);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void exceptionsCarryTheKey() throws Exception {
    server.enqueue(status(400));
    RequestOptions options = RequestOptions.none().withIdempotencyKey("key-on-error");

    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS, options))
        .isInstanceOfSatisfying(
            SafeRetryException.class,
            e -> {
              assertThat(e.key().value()).isEqualTo("key-on-error");
              assertThat(e.attempts()).hasSize(1);
              assertThat(e.getMessage()).contains("key-on-error");
            });
    assertThat(drain(server)).hasSize(1);
  }
}
