package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** Path templates: a value is always exactly one encoded segment. */
class PathTemplateTest {
  private static final PathTemplate CHARGE = PathTemplate.of("/v1/charges/{id}");

  @Test
  void aVariableBecomesItsValue() {
    assertThat(CHARGE.expand(Map.of("id", "ch_1"))).isEqualTo("/v1/charges/ch_1");
    assertThat(CHARGE.variables()).containsExactly("id");
    assertThat(PathTemplate.of("/v1/customers/{customer}/sources/{id}").variables())
        .containsExactlyInAnyOrder("customer", "id");
  }

  @Test
  void delimitersInAValueAreEncodedSoItStaysOneSegment() {
    assertThat(CHARGE.expand(Map.of("id", "a/b?c#d%e f+g;h:i@j&k=l")))
        .isEqualTo("/v1/charges/a%2Fb%3Fc%23d%25e%20f%2Bg%3Bh%3Ai%40j%26k%3Dl");
    assertThat(CHARGE.expand(Map.of("id", "é😀"))).isEqualTo("/v1/charges/%C3%A9%F0%9F%98%80");
    assertThat(CHARGE.expand(Map.of("id", "A-z_0.9~"))).isEqualTo("/v1/charges/A-z_0.9~");
    assertThat(PathTemplate.encodeSegment("%2F")).isEqualTo("%252F");
  }

  @Test
  void dotSegmentsAndEmptyValuesAreRefused() {
    for (String bad : List.of(".", "..", "")) {
      assertThatThrownBy(() -> CHARGE.expand(Map.of("id", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("{id}");
    }
    assertThat(CHARGE.expand(Map.of("id", "..."))).isEqualTo("/v1/charges/...");
    assertThat(CHARGE.expand(Map.of("id", ".hidden"))).isEqualTo("/v1/charges/.hidden");
  }

  @Test
  void missingAndUnknownVariablesAreRefused() {
    assertThatThrownBy(() -> CHARGE.expand(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("missing path variable {id}");
    assertThatThrownBy(() -> CHARGE.expand(Map.of("id", "ch_1", "idd", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no variable {idd}");
  }

  @Test
  void unpairedSurrogatesAreRefusedWithoutEchoingTheValue() {
    assertThatThrownBy(() -> CHARGE.expand(Map.of("id", "secret\uD83D")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate")
        .hasMessageNotContaining("secret");
  }

  @Test
  void malformedTemplatesAreRefused() {
    for (String bad :
        List.of(
            "v1/charges",
            "/v1/charges?limit=3",
            "/v1/charges#x",
            "/v1/../admin",
            "/v1/./charges",
            "/v1/charges/{id}.json",
            "/v1/{a-b}",
            "/v1/{id}/{id}",
            "/v1/%zz",
            "/v1/a b")) {
      assertThatThrownBy(() -> PathTemplate.of(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void okHttpKeepsTheEncodedSegments() {
    String path = CHARGE.expand(Map.of("id", "a/b c"));
    HttpUrl url = HttpUrl.get("https://api.example.com").newBuilder().encodedPath(path).build();
    assertThat(url.encodedPath()).isEqualTo("/v1/charges/a%2Fb%20c");
    assertThat(url.pathSegments()).containsExactly("v1", "charges", "a/b c");
  }
}
