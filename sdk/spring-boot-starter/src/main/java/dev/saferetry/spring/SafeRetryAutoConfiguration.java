package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * SafeRetry's clients from {@code saferetry.clients.<name>.*}: each a {@link SafeRetryClient} bean
 * named after its key, built with the application's key store, listeners, meters, observations and
 * (when present) resilience4j registries; {@link SafeRetryClientCustomizer} beans adjust them.
 *
 * <p>Switched off by {@code saferetry.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnClass(SafeRetryClient.class)
@ConditionalOnProperty(prefix = "saferetry", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SafeRetryProperties.class)
public class SafeRetryAutoConfiguration {
  /** Creates the configuration; Spring calls it. */
  public SafeRetryAutoConfiguration() {}

  /**
   * Registers a bean per configured client.
   *
   * @param environment the environment the properties are read from
   * @return the registrar
   */
  @Bean
  static ClientBeanRegistrar saferetryClientRegistrar(Environment environment) {
    return new ClientBeanRegistrar(environment);
  }

  @Bean
  UnknownOutcomes saferetryUnknownOutcomes() {
    return new UnknownOutcomes();
  }

  @Bean(ClientBeanRegistrar.FACTORY)
  SafeRetryClientFactory saferetryClientFactory(
      SafeRetryProperties properties,
      ObjectProvider<JdbcKeyStore> jdbcKeyStore,
      ObjectProvider<SafeRetryClientCustomizer> customizers,
      ObjectProvider<SafeRetryListener> listeners,
      ObjectProvider<PerClientListener> perClient) {
    return new SafeRetryClientFactory(
        properties,
        jdbcKeyStore,
        customizers,
        listeners,
        perClient
            .orderedStream()
            .map(p -> (java.util.function.Function<String, SafeRetryListener>) p::forClient)
            .toList());
  }
}
