package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.spring.app.Orders;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A client from properties on the DataSource's key store: a charge whose answer is lost, then an
 * application restart on the same database, then the same intent again — one charge.
 */
class LostAnswerRestartTest {
  @Test
  void aLostAnswerAndARestartStillMakeOneCharge() {
    try (FakeProvider provider = FakeProvider.start()) {
      provider.arm(Fault.loseAnswer().on("POST /v1/charges"));
      ApplicationContextRunner app =
          JdbcContexts.onFreshH2()
              .withPropertyValues(
                  "saferetry.jdbc.schema-init=create",
                  "saferetry.outbox.relay.enabled=false",
                  "saferetry.clients.payments.base-url=" + provider.baseUrl(),
                  "saferetry.clients.payments.retry.max-attempts=1");
      Map<String, Object> charge = Map.of("amount", 1250, "currency", "eur");
      RequestOptions order = RequestOptions.none().withIntentId("order-77");

      app.run(
          first -> {
            SafeRetryClient payments = first.getBean("payments", SafeRetryClient.class);
            assertThatThrownBy(() -> payments.execute(Orders.CHARGE, charge, order))
                .isInstanceOf(SafeRetryException.class);
          });
      assertThat(provider.effects()).as("charged, answer lost").hasSize(1);

      app.run(
          restarted -> {
            SafeRetryClient payments = restarted.getBean("payments", SafeRetryClient.class);
            CallResult<?> result = payments.execute(Orders.CHARGE, charge, order);
            assertThat(result.status()).isBetween(200, 201);
          });
      assertThat(provider.effects()).as("still one charge").hasSize(1);
      assertThat(provider.received()).hasSize(2);
      provider.assertOneEffectPerKey();
      provider.assertOneKeyPerIntent();
    }
  }
}
