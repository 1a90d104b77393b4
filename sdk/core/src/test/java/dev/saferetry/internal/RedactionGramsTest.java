package dev.saferetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A redaction masks every run of eight or more characters of a secret wherever it appears, found by
 * a rolling hash of the text's windows: the same text as looking up every window.
 */
class RedactionGramsTest {
  private static final String SECRET = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";

  @Test
  void everyRunOfEightCharactersOfTheSecretIsMasked() {
    Redaction r = Redaction.ofApiKey(SECRET);
    assertThat(r.mask("id " + SECRET.substring(3, 11) + " end")).isEqualTo("id [redacted] end");
    assertThat(r.mask(SECRET.substring(24))).isEqualTo("[redacted]");
    assertThat(r.mask(SECRET.substring(0, 7) + "!")).isEqualTo(SECRET.substring(0, 7) + "!");
    assertThat(r.mask("x" + SECRET.substring(10, 18) + SECRET.substring(20, 28)))
        .isEqualTo("x[redacted]");
    assertThat(r.mask(Map.of("X-Echo", java.util.List.of("Bearer " + SECRET))))
        .containsEntry("X-Echo", java.util.List.of("Bearer [redacted]"));
    byte[] bytes = ("{\"k\":\"" + SECRET.substring(5, 14) + "\"}").getBytes(StandardCharsets.UTF_8);
    assertThat(new String(r.mask(bytes), StandardCharsets.UTF_8))
        .isEqualTo("{\"k\":\"[redacted]\"}");
  }

  @Test
  void theRollingHashFindsWhatAWindowByWindowLookupFinds() {
    Redaction r = Redaction.ofApiKey(SECRET);
    Random random = new Random(42);
    String alphabet = SECRET + "ab ";
    for (int n = 0; n < 20_000; n++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(40);
      while (text.length() < length) {
        if (random.nextInt(4) == 0) {
          int from = random.nextInt(SECRET.length() - 8);
          text.append(SECRET, from, from + 8 + random.nextInt(SECRET.length() - 8 - from + 1));
        } else {
          text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      String t = text.toString();
      assertThat(r.mask(t)).as(t).isEqualTo(naive(t));
    }
  }

  /** Every window looked up as a string; the secret itself found anywhere. */
  private static String naive(String text) {
    if (text.length() < 4) {
      return text;
    }
    boolean[] hit = new boolean[text.length()];
    boolean any = false;
    for (int i = text.indexOf(SECRET); i >= 0; i = text.indexOf(SECRET, i + 1)) {
      java.util.Arrays.fill(hit, i, i + SECRET.length(), true);
      any = true;
    }
    for (int i = 0; i + 8 <= text.length(); i++) {
      if (SECRET.contains(text.substring(i, i + 8))) {
        java.util.Arrays.fill(hit, i, i + 8, true);
        any = true;
      }
    }
    if (!any) {
      return text;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      if (!hit[i]) {
        out.append(text.charAt(i));
      } else if (i == 0 || !hit[i - 1]) {
        out.append("[redacted]");
      }
    }
    return out.toString();
  }
}
