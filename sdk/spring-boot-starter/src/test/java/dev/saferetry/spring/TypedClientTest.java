package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.spring.app.ChargesClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContext;

/** A typed client named by saferetry.clients.<name>.typed-client is injectable. */
class TypedClientTest extends StarterContextTest {
  @Autowired ChargesClient charges;
  @Autowired ApplicationContext context;

  @Autowired
  @Qualifier("payments")
  SafeRetryClient payments;

  @Test
  void theTypedClientIsABeanOverItsNamedClient() {
    assertThat(context.getBean("paymentsTypedClient")).isSameAs(charges);
    assertThat(charges.client()).isSameAs(payments);
    assertThat(charges.create(42, "typed").status()).isEqualTo(200);
  }

  @Test
  void aTypedClientThatIsNotListedFailsStartUpNamingTheList() {
    JdbcContexts.onFreshH2()
        .withPropertyValues(
            "saferetry.clients.payments.base-url=http://127.0.0.1:9/",
            "saferetry.clients.payments.key-store.type=memory",
            "saferetry.jdbc.schema-init=create",
            "saferetry.clients.payments.typed-client=java.lang.String")
        .run(
            ctx ->
                assertThat(ctx.getStartupFailure())
                    .hasStackTraceContaining("typed-client: java.lang.String is not listed")
                    .hasStackTraceContaining("META-INF/saferetry/typed-clients.list"));
  }
}
