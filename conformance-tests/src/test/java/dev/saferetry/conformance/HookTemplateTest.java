package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HookTemplateTest {

  @Test
  void parsesMethodUrlAndBodyAndFillsPlaceholders() {
    HookTemplate t =
        HookTemplate.parse(
            "hook.fault.fail-after-commit",
            "post /_test/faults {\"fault\":\"fail_after_commit\",\"status\":${status}}");

    assertThat(t.method()).isEqualTo("POST");
    assertThat(t.url(Map.of())).isEqualTo("/_test/faults");
    assertThat(t.body(Map.of("status", "502")))
        .isEqualTo("{\"fault\":\"fail_after_commit\",\"status\":502}");
  }

  @Test
  void aTemplateWithoutBodyHasAnEmptyOneAndPlaceholdersWorkInTheUrl() {
    HookTemplate t = HookTemplate.parse("hook.fault.delay", "PUT /chaos/pause?ms=${millis}");

    assertThat(t.body(Map.of())).isEmpty();
    assertThat(t.url(Map.of("millis", "300"))).isEqualTo("/chaos/pause?ms=300");
  }

  @Test
  void malformedTemplatesAndUnknownPlaceholdersAreNamed() {
    assertThatThrownBy(() -> HookTemplate.parse("hook.restart", "restart-please"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hook.restart must be METHOD URL [BODY]");
    HookTemplate t = HookTemplate.parse("hook.clock", "POST /clock {\"by\":${minutes}}");
    assertThatThrownBy(() -> t.body(Map.of("seconds", "5")))
        .isInstanceOf(HookFailure.class)
        .hasMessageContaining("${minutes}");
  }

  @Test
  void placeholderValuesAreInsertedLiterally() {
    HookTemplate t = HookTemplate.parse("effects.count", "GET /count?m=${marker}");

    assertThat(t.url(Map.of("marker", "a$1\\b"))).isEqualTo("/count?m=a$1\\b");
  }
}
