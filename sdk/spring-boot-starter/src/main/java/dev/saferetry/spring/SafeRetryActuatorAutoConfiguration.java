package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.SafeRetryMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * SafeRetry's observability and operations, each part when the application has what it needs:
 * client meters in the application's {@code MeterRegistry}, calls observed through its {@code
 * ObservationRegistry}, the {@code saferetry} health component, the {@code saferetryoutbox}
 * operator endpoint, and the masking of credentials in Actuator.
 */
@AutoConfiguration(after = {SafeRetryAutoConfiguration.class, SafeRetryJdbcAutoConfiguration.class})
@ConditionalOnClass(SafeRetryClient.class)
@ConditionalOnProperty(prefix = "saferetry", name = "enabled", matchIfMissing = true)
public class SafeRetryActuatorAutoConfiguration {
  /** Creates the configuration; Spring calls it. */
  public SafeRetryActuatorAutoConfiguration() {}

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  static class ClientMeterConfiguration {
    @Bean
    PerClientListener saferetryClientMeters(ObjectProvider<MeterRegistry> registry) {
      return name -> {
        MeterRegistry r = registry.getIfUnique();
        return r == null
            ? new dev.saferetry.event.SafeRetryListener() {}
            : new ClientMeters(name, r);
      };
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(ObservationRegistry.class)
  static class ObservationConfiguration {
    @Bean
    PerClientListener saferetryClientObservations(ObjectProvider<ObservationRegistry> registry) {
      return name -> {
        ObservationRegistry r = registry.getIfUnique();
        return r == null || r.isNoop()
            ? new dev.saferetry.event.SafeRetryListener() {}
            : new ClientObservations(name, r);
      };
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({AbstractHealthIndicator.class, MeterRegistry.class})
  static class HealthConfiguration {
    @Bean
    SafeRetryHealthIndicator saferetryHealthIndicator(
        Map<String, SafeRetryClient> clients,
        UnknownOutcomes unknown,
        ObjectProvider<RelayLifecycle> relays,
        ObjectProvider<SafeRetryMeters> meters) {
      return new SafeRetryHealthIndicator(clients, unknown, relays, meters);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
  @ConditionalOnBean(JdbcKeyStore.class)
  @ConditionalOnAvailableEndpoint(OutboxEndpoint.class)
  static class EndpointConfiguration {
    @Bean
    OutboxEndpoint saferetryOutboxEndpoint(JdbcKeyStore store, SafeRetryProperties properties) {
      return new OutboxEndpoint(JdbcOutbox.of(store), properties.getOutbox().getOperator());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(SanitizingFunction.class)
  static class SanitizerConfiguration {
    @Bean
    CredentialsSanitizer saferetryCredentialsSanitizer() {
      return new CredentialsSanitizer();
    }
  }
}
