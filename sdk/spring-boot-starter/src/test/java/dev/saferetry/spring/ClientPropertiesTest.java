package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/** Each key under saferetry.clients becomes a client bean of that name, as its properties say. */
class ClientPropertiesTest extends StarterContextTest {
  @Autowired ApplicationContext context;

  @Test
  void eachClientIsABeanNamedAfterItsKey() {
    assertThat(context.getBeansOfType(SafeRetryClient.class))
        .containsOnlyKeys("payments", "ledger");
  }

  @Test
  void theKeyStoreIsTheDataSourcesUnlessAPropertySaysOtherwise() {
    KeyStore payments = context.getBean("payments", SafeRetryClient.class).keyStore();
    KeyStore ledger = context.getBean("ledger", SafeRetryClient.class).keyStore();
    assertThat(payments).isSameAs(context.getBean(JdbcKeyStore.class));
    assertThat(ledger).isNotInstanceOf(JdbcKeyStore.class).isNotInstanceOf(FileKeyStore.class);
  }

  @Test
  void theTenantDefaultsToTheClientsName() {
    assertThat(context.getBean("payments", SafeRetryClient.class).tenant()).isEqualTo("payments");
  }

  @Test
  void theRetryAndBreakerPropertiesReachTheClient() {
    SafeRetryClient payments = context.getBean("payments", SafeRetryClient.class);
    assertThat(payments.circuitBreaker().getCircuitBreakerConfig().getSlidingWindowSize())
        .isEqualTo(20);
  }

  @Test
  void theClientNeverShowsItsCredentials() {
    SafeRetryClient payments = context.getBean("payments", SafeRetryClient.class);
    assertThat(payments.toString()).doesNotContain(API_KEY);
    assertThat(context.getBean(SafeRetryProperties.class).getClients().get("payments").toString())
        .doesNotContain(API_KEY);
  }
}
