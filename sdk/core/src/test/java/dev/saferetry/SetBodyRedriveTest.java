package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.keys;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.RetryPolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pending intent whose body holds a set is re-driven by a fresh client (as after a restart) with
 * the set built in another order: it is the same request, so it is sent again under its key.
 * Before, the set was written in iteration order, the fingerprints differed, and the re-drive was
 * refused as INTENT_MISMATCH although the first attempt may have charged.
 */
class SetBodyRedriveTest extends ClientFixture {
  record Order(long amount, String currency, Set<String> tags) {}

  /** "Aa" and "BB" share a hash code: a HashSet hands them out in the order they were added. */
  static Order order(String... tagsInOrder) {
    Set<String> tags = new HashSet<>(4);
    tags.addAll(List.of(tagsInOrder));
    return new Order(1000, "eur", tags);
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "form"})
  void aPendingIntentWhoseSetIsBuiltInAnotherOrderIsReDrivenNotRefused(String codecName)
      throws Exception {
    BodyCodec codec = codecName.equals("json") ? BodyCodec.json() : BodyCodec.form();
    Operation<Order, Charge> create =
        Operation.post("/v1/charges", Order.class, Charge.class).withCodec(codec);
    Order first = order("Aa", "BB", "vip");
    Order again = order("BB", "Aa", "vip");
    assertThat(new ArrayList<>(first.tags())).isNotEqualTo(new ArrayList<>(again.tags()));
    KeyStore store = KeyStore.inMemory();
    RequestOptions intent = RequestOptions.none().withIntentId("order-7");

    server.enqueue(status(503));
    try (SafeRetryClient before =
        builder().keyStore(store).retryPolicy(RetryPolicy.noRetries()).build()) {
      assertThatThrownBy(() -> call(before, create, first, intent))
          .isInstanceOf(OutcomeUnknownException.class);
    }
    server.enqueue(charge());
    try (SafeRetryClient after = builder().keyStore(store).build()) {
      CallResult<Charge> result = call(after, create, again, intent);
      assertThat(result.value().id()).isEqualTo("ch_1");
      assertThat(after.pendingIntents()).isEmpty();
    }
    List<RecordedRequest> wire = drain(server);
    assertThat(wire).hasSize(2);
    assertThat(keys(wire, "Idempotency-Key"))
        .doesNotContainNull()
        .containsOnly(wire.get(0).getHeaders().get("Idempotency-Key"));
    assertThat(wire.get(1).getBody().utf8()).isEqualTo(wire.get(0).getBody().utf8());
  }
}
