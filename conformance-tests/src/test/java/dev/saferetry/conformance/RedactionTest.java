package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {
  private final Redaction redaction =
      new Redaction(
          SuiteConfig.resolve(
              Map.of(
                  "headers.Authorization", "Bearer sk_test_abcdef",
                  "hook.headers.X-Api-Key", "key-123456",
                  "tenant2.headers.Authorization", "Bearer other_tenant")));

  @Test
  void secretHeaderValuesAreHiddenByName() {
    assertThat(redaction.header("Authorization", "Bearer anything"))
        .isEqualTo("Authorization: ***");
    assertThat(redaction.header("Set-Cookie", "s=1")).isEqualTo("Set-Cookie: ***");
    assertThat(redaction.header("Location", "/v1/charges/ch_1"))
        .isEqualTo("Location: /v1/charges/ch_1");
  }

  @Test
  void configuredSecretsAreHiddenWhereverTheyAppear() {
    String echoed =
        "{\"auth\":\"Bearer sk_test_abcdef\",\"token\":\"sk_test_abcdef\",\"k\":\"key-123456\"}";

    assertThat(redaction.text(echoed))
        .doesNotContain("sk_test_abcdef")
        .doesNotContain("key-123456");
    assertThat(redaction.text("url?t=other_tenant")).isEqualTo("url?t=***");
  }

  @Test
  void longTextsAreCutAndUnprintableCharactersReplaced() {
    String cut = Redaction.cut("a".repeat(700), 600);
    assertThat(cut).startsWith("a".repeat(600)).endsWith("… (100 more characters)");
    assertThat(Redaction.cut("x\u0000y\u001bz\ud800w", 50)).isEqualTo("x?y?z?w");
    assertThat(Redaction.cut("ab\ud83d\ude00", 3)).isEqualTo("ab?… (1 more characters)");
  }

  @Test
  void xmlEscapingDropsWhatXmlCannotCarry() {
    assertThat(JunitXmlReport.esc("<a&\"\u0001\ud800>")).isEqualTo("&lt;a&amp;&quot;??&gt;");
  }
}
