package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.ApiSurface;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The public surface of saferetry-spring-boot-starter is the one in {@code
 * api/saferetry-spring-boot-starter.api}: a change to a public type or member fails here until that
 * file is updated in the same commit.
 */
class ApiSignatureTest {
  // Mostly the property classes Spring binds (one public type per nested group, which the
  // configuration metadata names), the auto-configurations Boot loads by name, and the four
  // beans users inject: the outbox, the inbox, the webhooks and the operator endpoint.
  private static final int TYPE_BUDGET = 30;

  private final ApiSurface surface =
      ApiSurface.of(Path.of("target", "classes"), SafeRetryOutbox.class.getClassLoader());

  @Test
  void publicSurfaceIsTheAcceptedOne() {
    surface.check(Path.of("api", "saferetry-spring-boot-starter.api"));
  }

  @Test
  void publicTypesStayWithinTheArtifactsBudget() {
    assertThat(surface.types()).hasSizeLessThanOrEqualTo(TYPE_BUDGET);
  }
}
