package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider's "already created" conflict is a success only when it names a usable id: an id that
 * is server text of any other shape (CR/LF, NUL, non-ASCII, 5,000 characters) never comes back as
 * the existing resource; the call stays UNKNOWN with the intent pending, its key reused on every
 * attempt.
 */
class ExistingResourceIdTest {
  @SuppressWarnings("unchecked")
  private static final Class<Map<String, Object>> MAP =
      (Class<Map<String, Object>>) (Class<?>) Map.class;

  private static final Operation<Map<String, Object>, Map<String, Object>> CREATE =
      Operation.post("/payments", MAP, MAP);

  private static final List<String> UNUSABLE =
      List.of(
          "PM1\r\nX-Injected: 1",
          "PM".repeat(2500),
          "P".repeat(256),
          "PM\u0000001",
          "PM 001",
          "PM\u00e9001",
          "PM\\ud800001",
          "",
          " ");

  private MockWebServer server;
  private SafeRetryClient client;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(0);
    FakeTime time = new FakeTime();
    client =
        SafeRetryClient.builder()
            .baseUrl(server.url("/").toString())
            .preset(ProviderPreset.goCardless())
            .clock(time)
            .sleeper(time)
            .jitter(() -> 0.5)
            .breakerPolicy(BreakerPolicy.disabled())
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  /** GoCardless's conflict, the id written into the JSON string as given (escapes included). */
  private static String conflict(String jsonEscapedId) {
    return "{\"error\":{\"code\":409,\"type\":\"invalid_state\",\"errors\":[{\"reason\":"
        + "\"idempotent_creation_conflict\",\"links\":{\"conflicting_resource_id\":\""
        + jsonEscapedId
        + "\"}}]}}";
  }

  private static String jsonEscaped(String id) {
    return id.replace("\r", "\\r").replace("\n", "\\n").replace("\u0000", "\\u0000");
  }

  @Test
  void aConflictNamingAnUnusableIdIsNeverASuccess() {
    ExistingResource rule =
        new ExistingResource(
            ErrorMatch.of(409, "/error/errors/*", "/reason", "idempotent_creation_conflict"),
            "/links/conflicting_resource_id"); // the GoCardless preset's rule
    for (String id : UNUSABLE) {
      assertThat(rule.resourceId(409, conflict(jsonEscaped(id)))).as("id %s", id).isEmpty();
    }
    assertThat(rule.resourceId(409, conflict("P".repeat(255)))).contains("P".repeat(255));
    assertThat(rule.resourceId(409, conflict("PM0001~!"))).contains("PM0001~!");
  }

  @Test
  void aConflictWithCrLfAndFiveThousandCharactersEndsUnknownWithTheIntentPending()
      throws Exception {
    String garbage = "PM1\r\nX-Injected: 1" + "A".repeat(5000);
    AtomicReference<String> answer = new AtomicReference<>(conflict(jsonEscaped(garbage)));
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse.Builder()
                .code(409)
                .setHeader("Content-Type", "application/json")
                .body(answer.get())
                .build();
          }
        });
    RequestOptions options = RequestOptions.none().withIntentId("order-1/payment");
    Throwable thrown =
        catchThrowable(() -> client.execute(CREATE, Map.of("amount", 1000), options));
    assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
    OutcomeUnknownException unknown = (OutcomeUnknownException) thrown;
    assertThat(unknown.getMessage()).doesNotContain("X-Injected").doesNotContain("AAAAAAAAAA");
    assertThat(unknown.reason()).isEqualTo(Reason.EXISTING_RESOURCE_ID_UNUSABLE);
    int attempts = unknown.attempts().size();
    assertThat(attempts).as("ends at once: another attempt gets the same answer").isEqualTo(1);

    List<RecordedRequest> wire = Answers.drain(server);
    assertThat(wire).hasSize(attempts);
    assertThat(Answers.keys(wire, "Idempotency-Key"))
        .doesNotContainNull()
        .containsOnly(unknown.key().value());
    assertThat(client.pendingIntents()).hasSize(1);
    IntentRecord pending = client.pendingIntents().get(0);
    assertThat(pending.state()).isEqualTo(IntentState.PENDING);
    assertThat(pending.resourceId()).isNull();
    assertThat(pending.key()).isEqualTo(unknown.key());

    // A later call of the same intent, answered with the usable id, completes it with that id.
    answer.set(conflict("PM000123"));
    assertThat(client.execute(CREATE, Map.of("amount", 1000), options).existingResource())
        .contains("PM000123");
    assertThat(server.takeRequest().getHeaders().get("Idempotency-Key"))
        .isEqualTo(unknown.key().value());
    assertThat(client.pendingIntents()).isEmpty();
    IntentRecord done = client.keyStore().find(pending.scope(), pending.intentId()).orElseThrow();
    assertThat(done.state()).isEqualTo(IntentState.SUCCEEDED);
    assertThat(done.resourceId()).isEqualTo("PM000123");
  }
}
