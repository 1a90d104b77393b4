package dev.saferetry.spring;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * When the application has resilience4j's Spring Boot support, the clients take their breaker and
 * retry settings from its registries by name and create their breaker and retry there (see the
 * starter's guide for which settings apply). Off with {@code saferetry.resilience4j.enabled=false}.
 */
@AutoConfiguration(
    before = SafeRetryAutoConfiguration.class,
    afterName = {
      "io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
      "io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration"
    })
@ConditionalOnClass({CircuitBreakerRegistry.class, RetryRegistry.class})
@ConditionalOnProperty(prefix = "saferetry.resilience4j", name = "enabled", matchIfMissing = true)
public class SafeRetryResilience4jAutoConfiguration {
  /** Creates the configuration; Spring calls it. */
  public SafeRetryResilience4jAutoConfiguration() {}

  @Bean
  @ConditionalOnProperty(prefix = "saferetry", name = "enabled", matchIfMissing = true)
  Resilience4jRegistries saferetryResilience4jRegistries(
      SafeRetryProperties properties,
      ObjectProvider<CircuitBreakerRegistry> breakers,
      ObjectProvider<RetryRegistry> retries) {
    return new Resilience4jRegistries(properties, breakers.getIfUnique(), retries.getIfUnique());
  }
}
