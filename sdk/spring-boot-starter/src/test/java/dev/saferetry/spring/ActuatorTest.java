package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.spring.app.Orders;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Health, metrics and env as an operator sees them over HTTP. */
class ActuatorTest extends StarterContextTest {
  @LocalServerPort int port;

  @Autowired
  @Qualifier("payments")
  SafeRetryClient payments;

  @Test
  void healthShowsSafeRetrysComponent() {
    HttpResponse<String> r = Http.get(port, "/actuator/health/saferetry");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .contains("\"status\":\"UP\"")
        .contains("\"payments\":{\"breaker\":\"CLOSED\",\"unknownOutcomes\":0}")
        .contains("\"queued_due\"")
        .contains("\"held\"")
        .contains("\"oldestDueSeconds\"")
        .contains("\"threadsAlive\":1");
  }

  @Test
  void clientAndOutboxMetersAreInTheApplicationsRegistry() {
    payments.execute(Orders.CHARGE, Map.of("amount", 5, "order", "metered"), RequestOptions.none());

    HttpResponse<String> calls = Http.get(port, "/actuator/metrics/saferetry.client.calls");
    assertThat(calls.statusCode()).isEqualTo(200);
    assertThat(calls.body()).contains("\"client\"").contains("payments").contains("succeeded");
    assertThat(Http.get(port, "/actuator/metrics/saferetry.client.attempts").statusCode())
        .isEqualTo(200);
    HttpResponse<String> backlog = Http.get(port, "/actuator/metrics/saferetry.outbox.intents");
    assertThat(backlog.statusCode()).isEqualTo(200);
    assertThat(backlog.body()).contains("queued_due");
    assertThat(Http.get(port, "/actuator/metrics/saferetry.relay.sends").statusCode())
        .isEqualTo(200);
  }

  @Test
  void theApiKeyAndOtherSecretsAreMaskedInEnvAndConfigprops() {
    HttpResponse<String> env =
        Http.get(port, "/actuator/env/saferetry.clients.payments.credentials.api-key");
    assertThat(env.statusCode()).isEqualTo(200);
    assertThat(env.body()).doesNotContain(API_KEY).contains("******");
    assertThat(Http.get(port, "/actuator/env").body())
        .doesNotContain(API_KEY)
        .doesNotContain(SEAL_SECRET)
        .doesNotContain(WEBHOOK_SECRET);
    HttpResponse<String> props = Http.get(port, "/actuator/configprops");
    assertThat(props.body())
        .contains("saferetry")
        .doesNotContain(API_KEY)
        .doesNotContain(SEAL_SECRET)
        .doesNotContain(WEBHOOK_SECRET);
  }
}
