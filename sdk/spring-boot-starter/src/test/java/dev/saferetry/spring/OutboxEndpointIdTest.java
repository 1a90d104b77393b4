package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.mock.env.MockEnvironment;

/**
 * The operator endpoint's id is one Spring Boot takes as it is: Boot warns at start-up ("contains
 * invalid characters") for an id with a dash or a dot, the same characters its legacy-id migration
 * strips; an id that migration leaves unchanged draws no warning.
 */
class OutboxEndpointIdTest {
  @Test
  void theEndpointIdIsOneBootAcceptsWithoutAWarning() {
    String id = OutboxEndpoint.class.getAnnotation(Endpoint.class).id();
    assertThat(id).isEqualTo("saferetryoutbox");

    MockEnvironment migrating =
        new MockEnvironment().withProperty("management.endpoints.migrate-legacy-ids", "true");
    assertThat(EndpointId.of(migrating, id).toString()).isEqualTo(id);
    assertThat(id).matches("[a-z][a-z0-9]*");
  }
}
