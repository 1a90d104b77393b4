package dev.saferetry.examples.support.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.FormStyle;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stripe's reading of form text: bracket nesting, lists, escapes and the errors. */
class FormParserTest {

  static Map<String, Object> parse(String text) throws FormParser.FormException {
    return FormParser.parse(text);
  }

  @Test
  void flatAndNestedParameters() throws Exception {
    assertThat(parse("amount=2000&currency=usd&metadata[order_id]=6735&metadata[x]=y"))
        .isEqualTo(
            Map.of(
                "amount", "2000",
                "currency", "usd",
                "metadata", Map.of("order_id", "6735", "x", "y")));
    assertThat(parse("a[b][c]=d")).isEqualTo(Map.of("a", Map.of("b", Map.of("c", "d"))));
  }

  @Test
  void bracketAndIndexedListsAreBothLists() throws Exception {
    assertThat(parse("expand[]=customer&expand[]=invoice"))
        .isEqualTo(Map.of("expand", List.of("customer", "invoice")));
    assertThat(parse("expand[1]=invoice&expand[0]=customer"))
        .isEqualTo(Map.of("expand", List.of("customer", "invoice")));
  }

  @Test
  void listsOfObjectsIndexedOrStartedByARepeatedKey() throws Exception {
    Map<String, Object> expected =
        Map.of("items", List.of(Map.of("price", "p1", "quantity", "2"), Map.of("price", "p2")));
    assertThat(parse("items[0][price]=p1&items[0][quantity]=2&items[1][price]=p2"))
        .isEqualTo(expected);
    assertThat(parse("items[][price]=p1&items[][quantity]=2&items[][price]=p2"))
        .isEqualTo(expected);
  }

  @Test
  void escapesDecodeAsUtf8AndPlusIsASpace() throws Exception {
    assertThat(parse("q=a+b%2Bc%26d%3De&n=%C3%A9%F0%9F%98%80&k%5Bx%5D=1"))
        .isEqualTo(Map.of("q", "a b+c&d=e", "n", "é😀", "k", Map.of("x", "1")));
    assertThat(parse("a=&b")).isEqualTo(Map.of("a", "", "b", ""));
    assertThat(parse("a=1&a=2")).isEqualTo(Map.of("a", "2"));
    assertThat(parse(null)).isEmpty();
    assertThat(parse("&&")).isEmpty();
  }

  @Test
  void malformedTextIsRefused() {
    for (String bad :
        List.of(
            "a=%zz",
            "a=%4",
            "a=%C3",
            "a=%FF",
            "a=1&a[b]=2",
            "a[b]=2&a=1",
            "a[]=1&a[b]=2",
            "a[1]=x",
            "[a]=1",
            "a[=1",
            "a[b[c]=1")) {
      assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOf(FormParser.FormException.class);
    }
  }

  @Test
  void whatTheSdksFormCodecWritesReadsBackAsTheSameStructure() throws Exception {
    Map<String, Object> value =
        Map.of(
            "amount", "2000",
            "metadata", Map.of("order id", "a&b=c [x] + é😀"),
            "expand", List.of("customer", "payment_intent.customer"),
            "items", List.of(Map.of("price", "p_1", "quantity", "2"), Map.of("price", "p 2")),
            "empty", "");
    for (BodyCodec codec :
        List.of(BodyCodec.form(), BodyCodec.form(FormStyle.defaults().withIndexedLists()))) {
      byte[] body = codec.encode(value).bytes();
      assertThat(parse(new String(body, StandardCharsets.ISO_8859_1))).isEqualTo(value);
    }
  }
}
