package dev.saferetry.spring;

import dev.saferetry.spring.app.CheckoutTestApp;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The one application context most of the starter's tests share (Spring caches it across classes
 * with the same configuration): the test application on an embedded H2 database with SafeRetry's
 * Flyway migrations beside its own, a web server on a random port, Actuator and Spring Security,
 * and one client, {@code payments}, pointed at {@link #PROVIDER}.
 */
@SpringBootTest(
    classes = CheckoutTestApp.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.datasource.url=jdbc:h2:mem:starter;DB_CLOSE_DELAY=-1",
      "saferetry.jdbc.schema-init=flyway",
      "saferetry.jdbc.outbox-seal-key.id=k1",
      "saferetry.jdbc.outbox-seal-key.secret=" + StarterContextTest.SEAL_SECRET,
      "saferetry.clients.payments.credentials.api-key=" + StarterContextTest.API_KEY,
      "saferetry.clients.payments.retry.max-attempts=2",
      "saferetry.clients.payments.breaker.sliding-window-size=20",
      "saferetry.clients.ledger.key-store.type=memory",
      "saferetry.clients.payments.typed-client=dev.saferetry.spring.app.ChargesClient",
      "saferetry.outbox.relay.poll-interval=20ms",
      "saferetry.outbox.relay.concurrency=2",
      "saferetry.outbox.operator.actions-enabled=true",
      "saferetry.webhooks.stripe.provider=stripe",
      "saferetry.webhooks.stripe.secrets[0]=" + StarterContextTest.WEBHOOK_SECRET,
      "management.endpoints.web.exposure.include=*",
      "management.endpoint.env.show-values=always",
      "management.endpoint.configprops.show-values=always",
      "management.endpoint.health.show-details=always",
    })
abstract class StarterContextTest {
  static final String API_KEY = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";
  static final String WEBHOOK_SECRET = "whsec_starter_test_secret";
  static final String SEAL_SECRET = "starter-test-seal-secret-0123456789abcdef";
  static final ProviderServer PROVIDER = new ProviderServer();

  @DynamicPropertySource
  static void provider(DynamicPropertyRegistry registry) {
    registry.add("saferetry.clients.payments.base-url", PROVIDER::url);
    registry.add("saferetry.clients.ledger.base-url", PROVIDER::url);
  }
}
