package dev.saferetry;

import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@link ClientFixture} whose every test runs twice: through {@code execute} and through {@code
 * executeAsync}, which must give the same outcomes and the same attempts.
 */
@ParameterizedClass
@EnumSource(ClientFixture.Via.class)
abstract class BothPaths extends ClientFixture {
  @Parameter Via via;

  @Override
  protected Via via() {
    return via;
  }
}
