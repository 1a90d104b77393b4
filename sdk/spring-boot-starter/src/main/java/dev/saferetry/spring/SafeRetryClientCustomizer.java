package dev.saferetry.spring;

import dev.saferetry.SafeRetryClientBuilder;

/**
 * Adjusts the builder of a client the starter makes from {@code saferetry.clients.<name>.*}, after
 * the properties were applied and before it is built: declare a bean of this type to set what
 * properties do not reach (an OkHttp client, a codec, a clock). Customizers run in their {@code
 * Ordered} order.
 *
 * <pre>{@code
 * @Bean
 * SafeRetryClientCustomizer userAgent() {
 *   return (name, builder) -> builder.userAgent("checkout", "1.4");
 * }
 * }</pre>
 *
 * <p>Implementations must be thread-safe; the starter calls them once per client at start-up.
 */
@FunctionalInterface
public interface SafeRetryClientCustomizer {
  /**
   * Adjusts one client's builder.
   *
   * @param clientName the client's name (its key under {@code saferetry.clients})
   * @param builder the builder, with the properties applied
   */
  void customize(String clientName, SafeRetryClientBuilder builder);
}
