package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.internal.Fingerprint;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The identity of a request: what makes two calls the same intent. */
class FingerprintTest {
  private static final BodyCodec JSON = BodyCodec.json();
  private static final BodyCodec FORM = BodyCodec.form();
  private static final QueryParams NONE = QueryParams.empty();

  /** The current fingerprint, the body as the client gives it: the codec's canonical bytes. */
  static String fp(String path, QueryParams q, Map<String, String> headers, BodyCodec c, Object b) {
    return Fingerprint.sha256Hex(
        Fingerprint.input(
            "POST", path, q, headers, c.contentType(), b == null ? null : c.canonical(b)));
  }

  @Test
  void theCurrentInputLengthPrefixesEveryFieldAndTellsNoBodyFromAnEmptyOne() {
    byte[] input =
        Fingerprint.input(
            "POST",
            "/v1/charges",
            QueryParams.of("expand[]", "customer"),
            Map.of("Stripe-Account", " acct_1 "),
            JSON.contentType(),
            JSON.canonical(Map.of("b", 1, "a", 2)));
    assertThat(new String(input, StandardCharsets.UTF_8))
        .isEqualTo(
            "saferetry-fingerprint/3\n4:POST\n11:/v1/charges\n17:expand[]=customer\n1:1\n"
                + "14:stripe-account\n6:acct_1\n"
                + "31:application/json; charset=utf-8\n13:{\"a\":2,\"b\":1}\n");
    String none =
        new String(
            Fingerprint.input("POST", "/x", NONE, Map.of(), FORM.contentType(), null),
            StandardCharsets.UTF_8);
    String empty =
        new String(
            Fingerprint.input("POST", "/x", NONE, Map.of(), FORM.contentType(), new byte[0]),
            StandardCharsets.UTF_8);
    assertThat(none).endsWith("\n-\n");
    assertThat(empty).endsWith("\n0:\n");
  }

  record Declared(int zeta, String alpha, Map<String, Object> meta) {}

  record Reordered(Map<String, Object> meta, String alpha, int zeta) {}

  @Test
  void theOrderAClassDeclaresItsFieldsInAndMapOrderDoNotChangeTheFingerprint() {
    Map<String, Object> ab = new LinkedHashMap<>();
    ab.put("a", 1);
    ab.put("b", Map.of("y", 1, "x", 2));
    Map<String, Object> ba = new LinkedHashMap<>();
    ba.put("b", Map.of("x", 2, "y", 1));
    ba.put("a", 1);
    assertThat(fp("/x", NONE, Map.of(), JSON, new Declared(5, "q", ab)))
        .isEqualTo(fp("/x", NONE, Map.of(), JSON, new Reordered(ba, "q", 5)));
    assertThat(new String(JSON.canonical(new Reordered(ba, "q", 5)), StandardCharsets.UTF_8))
        .isEqualTo("{\"alpha\":\"q\",\"meta\":{\"a\":1,\"b\":{\"x\":2,\"y\":1}},\"zeta\":5}");
    assertThat(fp("/x", NONE, Map.of(), JSON, new Declared(6, "q", ab)))
        .isNotEqualTo(fp("/x", NONE, Map.of(), JSON, new Declared(5, "q", ab)));
  }

  @Test
  void queryOrderAcrossNamesDoesNotMatterButValueOrderDoes() {
    QueryParams ab = QueryParams.empty().and("a", "1").and("b", "2");
    QueryParams ba = QueryParams.empty().and("b", "2").and("a", "1");
    assertThat(fp("/x", ab, Map.of(), JSON, null)).isEqualTo(fp("/x", ba, Map.of(), JSON, null));
    QueryParams xy = QueryParams.empty().and("e[]", "x").and("e[]", "y");
    QueryParams yx = QueryParams.empty().and("e[]", "y").and("e[]", "x");
    assertThat(fp("/x", xy, Map.of(), JSON, null)).isNotEqualTo(fp("/x", yx, Map.of(), JSON, null));
    assertThat(fp("/x", ab, Map.of(), JSON, null))
        .isNotEqualTo(fp("/x", NONE, Map.of(), JSON, null));
  }

  @Test
  void identityHeadersChangeTheIdentityWhateverTheirNameCase() {
    String a1 = fp("/x", NONE, Map.of("Stripe-Account", "acct_1"), FORM, Map.of("a", 1));
    assertThat(fp("/x", NONE, Map.of("stripe-account", "acct_1"), FORM, Map.of("a", 1)))
        .isEqualTo(a1);
    assertThat(fp("/x", NONE, Map.of("Stripe-Account", "acct_2"), FORM, Map.of("a", 1)))
        .isNotEqualTo(a1);
    assertThat(fp("/x", NONE, Map.of(), FORM, Map.of("a", 1))).isNotEqualTo(a1);
    Map<String, String> twice = new LinkedHashMap<>();
    twice.put("Stripe-Account", "a");
    twice.put("stripe-account", "b");
    assertThatThrownBy(() -> fp("/x", NONE, twice, FORM, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("given twice");
  }

  @Test
  void theBodyAndItsEncodingArePartOfTheIdentity() {
    Map<String, Object> body = Map.of("amount", 1);
    assertThat(fp("/x", NONE, Map.of(), FORM, body))
        .isNotEqualTo(fp("/x", NONE, Map.of(), JSON, body));
    assertThat(fp("/x", NONE, Map.of(), FORM, body))
        .isNotEqualTo(fp("/x", NONE, Map.of(), FORM, Map.of("amount", 2)));
    assertThat(fp("/x", NONE, Map.of(), FORM, body))
        .isEqualTo(fp("/x", NONE, Map.of(), FORM, body));
  }

  @Test
  void fieldsCannotBleedIntoEachOther() {
    // Without length prefixes these two would concatenate to the same text.
    String a = fp("/a", QueryParams.of("b", "1"), Map.of(), FORM, null);
    String b = fp("/a\n3:b=1", NONE, Map.of(), FORM, null);
    assertThat(a).isNotEqualTo(b);
    String c = fp("/a", NONE, Map.of("x", "1\n1:y"), FORM, null);
    String d = fp("/a", NONE, Map.of("x", "1", "y", ""), FORM, null);
    assertThat(c).isNotEqualTo(d);
  }
}
