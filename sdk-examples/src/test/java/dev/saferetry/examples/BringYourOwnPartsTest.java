package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.Sandbox;
import dev.saferetry.testing.FakeTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class BringYourOwnPartsTest {
  @Test
  void callersInterceptorSeesTheRetryWithTheSameKey() {
    FakeTime time = new FakeTime();
    try (Sandbox api = Sandbox.start()) {
      api.dropNextResponse();
      List<String> keys = BringYourOwnParts.run(Rows.client(api, time));

      assertThat(api.sideEffects()).isEqualTo(1);
      assertThat(keys).hasSize(2).containsOnly(keys.get(0)).doesNotContain("null");
      assertThat(time.sleeps()).hasSize(1);
    }
  }
}
