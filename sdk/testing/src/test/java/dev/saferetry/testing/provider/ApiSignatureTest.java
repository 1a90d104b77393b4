package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.testing.ApiSurface;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The public surface of saferetry-testing is the one in {@code api/saferetry-testing.api}: a change
 * to a public type or member fails here until that file is updated in the same commit.
 */
class ApiSignatureTest {
  // A test-scope artifact beside the SDK's 80: the provider, its builder, the two value records,
  // the fault and its kind, the dialect, the JUnit extension and its Spring counterpart, the
  // @WithFakeProvider annotation (one type: Spring's hooks behind it are package-private).
  private static final int TYPE_BUDGET = 9;

  private final ApiSurface surface =
      ApiSurface.of(Path.of("target", "classes"), FakeProvider.class.getClassLoader());

  @Test
  void publicSurfaceIsTheAcceptedOne() {
    surface.check(Path.of("api", "saferetry-testing.api"));
  }

  @Test
  void publicTypesStayWithinTheArtifactsBudget() {
    assertThat(surface.types()).hasSizeLessThanOrEqualTo(TYPE_BUDGET);
  }
}
