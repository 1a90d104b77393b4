package dev.saferetry;

import static dev.saferetry.testing.Answers.CHARGE_JSON;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.ApiException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code maxResponseBytes} at its extremes: every limit the builder accepts reads a body up to it,
 * none overflows into a silent empty body.
 */
class ResponseLimitTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @ParameterizedTest
  @ValueSource(
      longs = {
        Long.MAX_VALUE,
        Long.MAX_VALUE - 1,
        Integer.MAX_VALUE + 1L,
        Integer.MAX_VALUE,
        Integer.MAX_VALUE - 8L,
        Integer.MAX_VALUE - 9L
      })
  void aHugeLimitReadsTheWholeBody(long limit) {
    server.enqueue(json(200, CHARGE_JSON));
    server.enqueue(json(402, "{\"error\":{\"type\":\"card_error\",\"code\":\"card_declined\"}}"));
    try (SafeRetryClient c = builder().maxResponseBytes(limit).build()) {
      CallResult<Charge> r =
          call(
              c,
              Charges.CREATE,
              PARAMS,
              RequestOptions.none().withIntentId("o-1").withKeepBody(true));
      assertThat(r.value()).isNotNull();
      assertThat(r.value().id()).isEqualTo("ch_1");
      assertThat(r.value().amount()).isEqualTo(1000L);
      assertThat(new String(r.response().body().orElseThrow(), StandardCharsets.UTF_8))
          .isEqualTo(CHARGE_JSON);
      assertThat(c.keyStore().find(new IntentScope("default", "POST /v1/charges"), "o-1"))
          .hasValueSatisfying(
              i -> {
                assertThat(i.state()).isEqualTo(IntentState.SUCCEEDED);
                assertThat(i.resourceId()).isEqualTo("ch_1");
              });
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              ApiException.class, e -> assertThat(e.errorCode()).isEqualTo("card_declined"));
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 100})
  void aBodyOneByteOverTheLimitIsTooLarge(long limit) {
    String body = "[" + "1,".repeat(200) + "1]";
    server.enqueue(json(200, body.substring(0, (int) limit + 1)));
    try (SafeRetryClient c = builder().maxResponseBytes(limit).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              ResponseBodyException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.BODY_TOO_LARGE);
                assertThat(e.getMessage()).contains("limit of " + limit + " bytes");
              });
    }
  }
}
