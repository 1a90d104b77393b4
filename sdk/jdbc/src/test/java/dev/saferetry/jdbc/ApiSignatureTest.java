package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.testing.ApiSurface;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The public surface of saferetry-jdbc is the one in {@code api/saferetry-jdbc.api}: a change to a
 * public type or member fails here until that file is updated in the same commit.
 */
class ApiSignatureTest {
  // core 61 + jdbc 17 + webhook 7: the SDK stays within 85 public types in all (the 81st: a key
  // store's typed refusal of an intent someone else holds, IntentRefusedException; the 82nd to
  // 85th: what generated typed clients need and plain Java cannot say, in dev.saferetry.model —
  // FieldValue with its Jackson filter OmitAbsent, Expandable and UnixTime)
  private static final int TYPE_BUDGET = 17;

  private final ApiSurface surface =
      ApiSurface.of(Path.of("target", "classes"), JdbcKeyStore.class.getClassLoader());

  @Test
  void publicSurfaceIsTheAcceptedOne() {
    surface.check(Path.of("api", "saferetry-jdbc.api"));
  }

  @Test
  void publicTypesStayWithinTheArtifactsBudget() {
    assertThat(surface.types()).hasSizeLessThanOrEqualTo(TYPE_BUDGET);
  }
}
