package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text that cannot be stored exactly never reaches a store: an unpaired surrogate would be encoded
 * as a replacement character, so that two different intent ids became one record and a re-drive
 * with the original id minted a second key.
 */
class IntentTextTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);
  private static final IntentScope CHARGES = new IntentScope("default", "POST /v1/charges");

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"order-42-\uD83D", "order-42-\uDE00", "\uD83Dorder-42", "or\uDE00der"})
  void anIntentIdWithAnUnpairedSurrogateIsRefusedBeforeAnythingIsWritten(String id) {
    assertThatThrownBy(() -> RequestOptions.none().withIntentId(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
    assertThatThrownBy(
            () ->
                IntentRecord.pending(
                    CHARGES, id, IdempotencyKey.random(), "fp", Instant.EPOCH, Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void idsThatDifferOnlyInAnUnpairedSurrogateNeverBecomeOneRecord() throws Exception {
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      for (String id : List.of("order-42-\uD83D", "order-42-\uD83E", "order-42-?")) {
        if (id.endsWith("?")) {
          server.enqueue(charge());
          c.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId(id));
        } else {
          assertThatThrownBy(() -> RequestOptions.none().withIntentId(id))
              .isInstanceOf(IllegalArgumentException.class);
        }
      }
      assertThat(store.find(CHARGES, "order-42-?")).isPresent();
      assertThat(store.find(CHARGES, "order-42-\uD83D")).isEmpty();
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aTenantOrAnOperationNameWithAnUnpairedSurrogateIsRefusedBeforeAnyIo() throws Exception {
    assertThatThrownBy(() -> builder().tenant("merchant-\uDBFF").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant")
        .hasMessageContaining("unpaired surrogate");
    Operation<ChargeCreateParams, Object> named =
        Operation.post("/v1/charges", ChargeCreateParams.class, Object.class)
            .named("charge \uD800");
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      assertThatThrownBy(
              () -> c.execute(named, PARAMS, RequestOptions.none().withIntentId("order-1")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("operation");
      assertThat(store.pending()).isEmpty();
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void hugeIdsTenantsAndOperationNamesAreRefusedBeforeAnyIo() throws Exception {
    assertThatThrownBy(() -> RequestOptions.none().withIntentId("x".repeat(256)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("intent id must be 1..255");
    assertThatThrownBy(() -> builder().tenant("t".repeat(256)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant must be 1..255");
    Operation<ChargeCreateParams, Object> huge =
        Operation.post("/v1/charges", ChargeCreateParams.class, Object.class)
            .named("o".repeat(1025));
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      assertThatThrownBy(
              () -> c.execute(huge, PARAMS, RequestOptions.none().withIntentId("order-1")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("operation must be 1..1024");
      assertThat(store.pending()).isEmpty();
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void idsOutsideTheBasicPlaneSurviveARestartAndTheirRedriveReusesTheirKeys() throws Exception {
    List<String> ids = List.of("order-42-\uD83D\uDE00", "order-42-\uD83D\uDE01");
    List<IntentRecord> listed;
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c =
            builder().keyStore(store).retryPolicy(RetryPolicy.noRetries()).build()) {
      for (String id : ids) {
        server.enqueue(status(503));
        assertThatThrownBy(
                () -> c.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId(id)))
            .isInstanceOf(OutcomeUnknownException.class);
      }
      listed = c.pendingIntents();
    }
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      assertThat(c.pendingIntents()).isEqualTo(listed);
      assertThat(c.pendingIntents())
          .extracting(IntentRecord::intentId)
          .containsExactlyElementsOf(ids);
      for (IntentRecord r : c.pendingIntents()) {
        server.enqueue(charge());
        c.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId(r.intentId()));
      }
      assertThat(c.pendingIntents()).isEmpty();
    }
    List<String> keys = Answers.keys(drain(server), "Idempotency-Key");
    String first = listed.get(0).key().value();
    String second = listed.get(1).key().value();
    assertThat(keys).containsExactly(first, second, first, second);
  }

  @Test
  void aResourceIdThatCannotBeStoredExactlyIsStoredAsAbsentAndTheCallStillSucceeds()
      throws Exception {
    Operation<Object, Object> things = Operation.post("/v1/things", Object.class, Object.class);
    server.enqueue(json(201, "{\"id\":\"th_\\ud83d\"}")); // a JSON escape of a lone surrogate
    server.enqueue(json(201, "{\"id\":\"" + "x".repeat(5000) + "\"}"));
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c = builder().keyStore(store).build()) {
      for (String id : List.of("lone", "long")) {
        CallResult<Object> result =
            c.execute(things, Map.of("n", 1), RequestOptions.none().withIntentId(id));
        assertThat(result.status()).isEqualTo(201);
        IntentRecord stored =
            store.find(new IntentScope("default", "POST /v1/things"), id).orElseThrow();
        assertThat(stored.state()).isEqualTo(IntentState.SUCCEEDED);
        assertThat(stored.resourceId()).isNull();
      }
    }
    assertThat(Files.size(dir.resolve("intents.log"))).isLessThan(2000);
  }
}
