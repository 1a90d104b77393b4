package dev.saferetry.examples.checkout;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A small checkout on SafeRetry's Spring Boot starter. An order and its charge are committed in one
 * transaction ({@link OrderService}); the starter's relay sends the charge with its idempotency
 * key; the provider's webhook is verified and applied once through the inbox ({@link
 * PaymentWebhooks}). Actuator shows SafeRetry's health, meters and the outbox operator endpoint,
 * which only an authenticated operator may use.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples/spring-checkout -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.checkout.CheckoutApplication \
 *     -Dexec.args="--saferetry.clients.payments.base-url=http://127.0.0.1:8080"
 * </pre>
 */
@SpringBootApplication
public class CheckoutApplication {
  /** Starts the checkout; Spring Boot's arguments ({@code --name=value}) override its settings. */
  public static void main(String[] args) {
    SpringApplication.run(CheckoutApplication.class, args);
  }

  /** Orders and webhooks are open (webhooks prove themselves by signature); operators log in. */
  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    return http.authorizeHttpRequests(
            a ->
                a.requestMatchers("/actuator/saferetryoutbox", "/actuator/saferetryoutbox/**")
                    .authenticated()
                    .anyRequest()
                    .permitAll())
        .httpBasic(Customizer.withDefaults())
        // An API without browser sessions: no cookies for a forged request to ride on.
        .csrf(c -> c.disable())
        .build();
  }
}
