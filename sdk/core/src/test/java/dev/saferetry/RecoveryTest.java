package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recovery API is tenant-consistent: what a client lists, it can re-drive and abandon, and no
 * path — another tenant's client, another operation, an abandoned record — mints a second key for a
 * listed intent.
 */
class RecoveryTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);
  private static final Operation<ChargeCreateParams, Object> OTHER_OPERATION =
      Operation.post("/v1/charges", ChargeCreateParams.class, Object.class).named("charge v2");

  @TempDir Path dir;

  /** One attempt per call: a 503 leaves the intent pending at once. */
  @BeforeEach
  void clientWithoutRetries() {
    client.close();
    client = client(KeyStore.inMemory(), IntentScope.DEFAULT_TENANT);
  }

  private SafeRetryClient client(KeyStore store, String tenant) {
    return builder().keyStore(store).tenant(tenant).retryPolicy(RetryPolicy.noRetries()).build();
  }

  private static RequestOptions intent(String id) {
    return RequestOptions.none().withIntentId(id);
  }

  private static RequestOptions redrive(IntentRecord listed) {
    return RequestOptions.none().withRedrive(listed);
  }

  /** A call whose answer was lost: the intent stays pending. */
  private IntentRecord leavePending(SafeRetryClient c, String intentId) {
    server.enqueue(status(503));
    assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, intent(intentId)))
        .isInstanceOf(OutcomeUnknownException.class);
    return c.pendingIntents().stream()
        .filter(r -> r.intentId().equals(intentId))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void eachClientListsOnlyItsOwnTenantsPendingIntents() {
    KeyStore shared = KeyStore.inMemory();
    try (SafeRetryClient a = client(shared, "merchant-a");
        SafeRetryClient b = client(shared, "merchant-b")) {
      IntentRecord ofA = leavePending(a, "order-1");
      IntentRecord ofB = leavePending(b, "order-1");

      assertThat(a.pendingIntents()).containsExactly(ofA);
      assertThat(b.pendingIntents()).containsExactly(ofB);
      assertThat(shared.pending()).containsExactlyInAnyOrder(ofA, ofB);
    }
  }

  @Test
  void aListedIntentRedrivenThroughAnotherTenantsClientIsRefusedBeforeAnyIo() {
    KeyStore shared = KeyStore.inMemory();
    try (SafeRetryClient a = client(shared, "merchant-a");
        SafeRetryClient b = client(shared, "merchant-b")) {
      IntentRecord ofA = leavePending(a, "order-1");
      int sent = server.getRequestCount();

      assertThatThrownBy(() -> b.execute(Charges.CREATE, PARAMS, redrive(ofA)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("belongs to tenant 'merchant-a'")
          .hasMessageContaining("'merchant-b'");
      assertThat(server.getRequestCount()).isEqualTo(sent);
      assertThat(shared.pending()).containsExactly(ofA);
    }
  }

  @Test
  void aListedIntentRedrivenAsAnotherOperationIsRefusedBeforeAnyIo() {
    IntentRecord listed = leavePending(client, "order-1");
    int sent = server.getRequestCount();

    assertThatThrownBy(() -> client.execute(OTHER_OPERATION, PARAMS, redrive(listed)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("recorded for operation 'POST /v1/charges'")
        .hasMessageContaining("'charge v2'");
    assertThat(server.getRequestCount()).isEqualTo(sent);
    assertThat(client.pendingIntents()).containsExactly(listed);
  }

  @Test
  void aListedIntentIsRedrivenWithItsRecordedKeyAfterARestart() throws Exception {
    IntentRecord listed;
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient first = client(store, "merchant-a")) {
      listed = leavePending(first, "order-1");
    }
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient restarted = client(store, "merchant-a")) {
      IntentRecord found = restarted.pendingIntents().get(0);
      assertThat(found).isEqualTo(listed);
      server.enqueue(charge());
      CallResult<?> result = restarted.execute(Charges.CREATE, PARAMS, redrive(found));
      assertThat(result.key()).isEqualTo(listed.key());
      assertThat(restarted.pendingIntents()).isEmpty();
    }
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .containsExactly(listed.key().value(), listed.key().value());
  }

  @Test
  void aListedIntentRedrivenAfterItWasAbandonedStillCarriesItsRecordedKey() throws Exception {
    IntentRecord listed = leavePending(client, "order-1");
    assertThat(client.abandonIntent(listed)).isTrue();

    server.enqueue(charge());
    assertThat(client.execute(Charges.CREATE, PARAMS, redrive(listed)).key())
        .isEqualTo(listed.key());
    assertThat(Answers.keys(drain(server), "Idempotency-Key")).containsOnly(listed.key().value());
  }

  @Test
  void abandoningAListedIntentRemovesThatRecordOnlyNeverANewerOneWithTheSameId() {
    IntentRecord listed = leavePending(client, "order-1");
    assertThat(client.abandonIntent(listed)).isTrue();
    IntentRecord newer = leavePending(client, "order-1");
    assertThat(newer.key()).isNotEqualTo(listed.key());

    assertThat(client.abandonIntent(listed)).isFalse();
    assertThat(client.pendingIntents()).containsExactly(newer);
  }

  @Test
  void anotherTenantsIntentCannotBeAbandonedThroughThisClient() {
    KeyStore shared = KeyStore.inMemory();
    try (SafeRetryClient a = client(shared, "merchant-a");
        SafeRetryClient b = client(shared, "merchant-b")) {
      IntentRecord ofA = leavePending(a, "order-1");

      assertThatThrownBy(() -> b.abandonIntent(ofA))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("belongs to tenant 'merchant-a'");
      assertThat(b.abandonIntent(Charges.CREATE, "order-1")).isFalse();
      assertThat(a.pendingIntents()).containsExactly(ofA);
    }
  }

  @Test
  void anIntentIsAbandonedByItsOperationAndIntentId() {
    IntentRecord listed = leavePending(client, "order-1");
    assertThat(client.abandonIntent(OTHER_OPERATION, "order-1")).isFalse();
    assertThat(client.abandonIntent(Charges.CREATE, "order-1")).isTrue();
    assertThat(client.pendingIntents()).isEmpty();
    IntentRecord again = leavePending(client, "order-1");
    assertThat(again.key()).isNotEqualTo(listed.key());
  }

  @Test
  void redriveOptionsKeepTheListedIntentIdAndKey() {
    IntentRecord listed = leavePending(client, "order-1");
    assertThatThrownBy(() -> RequestOptions.none().withRedrive(listed).withIntentId("order-2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("keeps its own intent id and key");
    assertThatThrownBy(
            () -> RequestOptions.none().withRedrive(listed).withIdempotencyKey("another"))
        .isInstanceOf(IllegalArgumentException.class);
    RequestOptions options = redrive(listed);
    assertThat(options.intentId()).isEqualTo("order-1");
    assertThat(options.idempotencyKey()).isEqualTo(listed.key());
    assertThat(options.withoutIdentity().redrive()).isNull();
    assertThat(List.of(options.redrive())).containsExactly(listed);
  }
}
