package dev.saferetry.spring.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The application the starter's tests start: one order service that enqueues its charge, a webhook
 * controller, and a security chain that lets anonymous requests reach every URL (so the operator
 * endpoint's own refusal is what a test sees) and knows one operator by HTTP Basic.
 */
@SpringBootApplication
public class CheckoutTestApp {
  /** The operator's password in the tests. */
  public static final String OPERATOR_PASSWORD = "operator-password";

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    return http.authorizeHttpRequests(a -> a.anyRequest().permitAll())
        .httpBasic(Customizer.withDefaults())
        .csrf(c -> c.disable())
        .build();
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}" + OPERATOR_PASSWORD).roles("OPS").build());
  }
}
