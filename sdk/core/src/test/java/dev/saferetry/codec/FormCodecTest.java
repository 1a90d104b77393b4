package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Every rule of the form codec, asserted on the exact bytes. */
class FormCodecTest {
  private static final BodyCodec FORM = BodyCodec.form();
  private static final BodyCodec INDEXED = BodyCodec.form(FormStyle.defaults().withIndexedLists());
  private static final BodyCodec EMPTY_NULLS =
      BodyCodec.form(FormStyle.defaults().withEmptyNulls());

  record Charge(
      long amount,
      String currency,
      String description,
      Map<String, String> metadata,
      List<String> expand) {}

  record Item(String price, int quantity) {}

  record Order(List<Item> items) {}

  record Flags(boolean capture, Boolean livemode) {}

  record Named(@JsonProperty("statement_descriptor") String descriptor, Kind kind) {}

  enum Kind {
    CARD
  }

  static String form(BodyCodec codec, Object value) {
    return new String(codec.encode(value).bytes(), StandardCharsets.US_ASCII);
  }

  @Test
  void flatFieldsInDeclarationOrderWithStripesContentType() {
    EncodedBody body = FORM.encode(new Charge(2000, "usd", null, null, null));
    assertThat(new String(body.bytes(), StandardCharsets.US_ASCII))
        .isEqualTo("amount=2000&currency=usd");
    assertThat(body.contentType()).isEqualTo("application/x-www-form-urlencoded;charset=UTF-8");
  }

  @Test
  void nestedObjectsAreBracketedWithLiteralBrackets() {
    Charge c = new Charge(2000, "usd", null, Map.of("order_id", "6735"), null);
    assertThat(form(FORM, c)).isEqualTo("amount=2000&currency=usd&metadata[order_id]=6735");
    assertThat(form(FORM, Fields.of("a", Fields.of("b", Fields.of("c", "d")))))
        .isEqualTo("a[b][c]=d");
  }

  @Test
  void listsOfPlainValuesUseEmptyBracketsByDefault() {
    Charge c = new Charge(1, "usd", null, null, List.of("customer", "invoice"));
    assertThat(form(FORM, c)).endsWith("&expand[]=customer&expand[]=invoice");
  }

  @Test
  void indexedStyleNumbersEveryListElement() {
    Charge c = new Charge(1, "usd", null, null, List.of("customer", "invoice"));
    assertThat(form(INDEXED, c)).endsWith("&expand[0]=customer&expand[1]=invoice");
    assertThat(form(INDEXED, Fields.of("a", List.of(List.of("x", "y")))))
        .isEqualTo("a[0][0]=x&a[0][1]=y");
  }

  @Test
  void listsOfObjectsAreIndexedEvenInBracketStyle() {
    Order o = new Order(List.of(new Item("p_1", 2), new Item("p_2", 1)));
    String expected =
        "items[0][price]=p_1&items[0][quantity]=2&items[1][price]=p_2&items[1][quantity]=1";
    assertThat(form(FORM, o)).isEqualTo(expected);
    assertThat(form(INDEXED, o)).isEqualTo(expected);
    assertThat(form(FORM, Fields.of("a", List.of(List.of("x"), List.of("y")))))
        .isEqualTo("a[0][]=x&a[1][]=y");
  }

  /** Plain elements are read before the list is known to hold a container: all are numbered. */
  @Test
  void aListWhosePlainElementsComeBeforeAnObjectIsNumberedThroughout() {
    List<Object> mixed = new java.util.ArrayList<>();
    mixed.add("x");
    mixed.add(7);
    mixed.add(Map.of("k", "v"));
    mixed.add("y");
    assertThat(form(FORM, Fields.of("a", mixed))).isEqualTo("a[0]=x&a[1]=7&a[2][k]=v&a[3]=y");
    assertThat(form(INDEXED, Fields.of("a", mixed))).isEqualTo("a[0]=x&a[1]=7&a[2][k]=v&a[3]=y");
    List<Object> plainThenNull = new java.util.ArrayList<>();
    plainThenNull.add("x");
    plainThenNull.add(List.of());
    plainThenNull.add(null);
    assertThat(form(EMPTY_NULLS, Fields.of("a", plainThenNull))).isEqualTo("a[0]=x&a[1]=&a[2]=");
  }

  @Test
  void booleansAreTrueOrFalse() {
    assertThat(form(FORM, new Flags(false, true))).isEqualTo("capture=false&livemode=true");
  }

  @Test
  void numbersAreWrittenInPlainDecimal() {
    assertThat(form(FORM, Fields.of("n", 2000L))).isEqualTo("n=2000");
    assertThat(form(FORM, Fields.of("n", -7))).isEqualTo("n=-7");
    assertThat(form(FORM, Fields.of("n", new BigInteger("123456789012345678901234567890"))))
        .isEqualTo("n=123456789012345678901234567890");
    assertThat(form(FORM, Fields.of("n", new BigDecimal("1.50")))).isEqualTo("n=1.50");
    assertThat(form(FORM, Fields.of("n", 2.0d))).isEqualTo("n=2");
    assertThat(form(FORM, Fields.of("n", 0.1d))).isEqualTo("n=0.1");
    assertThat(form(FORM, Fields.of("n", 1e21d))).isEqualTo("n=1000000000000000000000");
    assertThat(form(FORM, Fields.of("n", 1e-7d))).isEqualTo("n=0.0000001");
    assertThat(form(FORM, Fields.of("n", 0.1f))).isEqualTo("n=0.1");
    assertThat(form(FORM, Fields.of("n", -0.0d))).isEqualTo("n=0");
  }

  @Test
  void nonFiniteNumbersAreRefusedWithTheFieldName() {
    assertThatThrownBy(() -> FORM.encode(Fields.of("rate", Double.NaN)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rate");
    assertThatThrownBy(() -> FORM.encode(Fields.of("rate", Double.POSITIVE_INFINITY)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nullsAreOmittedByDefaultOrSentEmpty() {
    Charge c = new Charge(1, "usd", null, null, null);
    assertThat(form(FORM, c)).isEqualTo("amount=1&currency=usd");
    assertThat(form(EMPTY_NULLS, c))
        .isEqualTo("amount=1&currency=usd&description=&metadata=&expand=");
    assertThat(form(EMPTY_NULLS, Fields.of("metadata", Fields.of("old_key", null))))
        .isEqualTo("metadata[old_key]=");
  }

  @Test
  void emptyTextAndEmptyListsAreSentEmptyAndEmptyObjectsAddNothing() {
    assertThat(form(FORM, Fields.of("description", ""))).isEqualTo("description=");
    assertThat(form(FORM, Fields.of("tax_rates", List.of()))).isEqualTo("tax_rates=");
    assertThat(form(FORM, Fields.of("a", 1, "metadata", Map.of()))).isEqualTo("a=1");
    assertThat(form(FORM, Fields.of())).isEmpty();
  }

  @Test
  void aNullListElementCannotBeOmittedButCanBeSentEmpty() {
    List<String> withNull = Arrays.asList("x", null);
    assertThatThrownBy(() -> FORM.encode(Fields.of("a", withNull)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a[1]");
    assertThat(form(EMPTY_NULLS, Fields.of("a", withNull))).isEqualTo("a[]=x&a[]=");
  }

  @Test
  void reservedCharactersAndUnicodeArePercentEncoded() {
    String value = "a b+c&d=e[f]%g/h?i#j;k~l*m-n.o_pé😀";
    assertThat(form(FORM, Fields.of("v", value)))
        .isEqualTo("v=a+b%2Bc%26d%3De%5Bf%5D%25g%2Fh%3Fi%23j%3Bk%7El*m-n.o_p%C3%A9%F0%9F%98%80");
    assertThat(form(FORM, Fields.of("metadata", Fields.of("order id&x=y", "1"))))
        .isEqualTo("metadata[order+id%26x%3Dy]=1");
  }

  @Test
  void unpairedSurrogatesAreRefusedWithoutEchoingTheText() {
    for (String bad : List.of("pin-\uD83D", "\uDE00x", "a\uD83Db")) {
      assertThatThrownBy(() -> FORM.encode(Fields.of("metadata", Fields.of("note", bad))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("metadata[note]")
          .hasMessageContaining("unpaired surrogate")
          .hasMessageNotContaining(bad);
    }
    assertThatThrownBy(() -> FORM.encode(Fields.of("k\uD83D", "v")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void fieldNamesWithBracketsOrEmptyNamesAreRefused() {
    assertThatThrownBy(() -> FORM.encode(Fields.of("metadata", Fields.of("a[b]", "1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'['");
    assertThatThrownBy(() -> FORM.encode(Fields.of("", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void theBodyMustBeAnObjectWithNamedFields() {
    assertThatThrownBy(() -> FORM.encode(List.of("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("named fields");
    assertThatThrownBy(() -> FORM.encode("amount=1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FORM.encode(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void jacksonNamesAndEnumsApply() {
    assertThat(form(FORM, new Named("SHOP", Kind.CARD)))
        .isEqualTo("statement_descriptor=SHOP&kind=CARD");
  }

  @Test
  void mapEntriesAreWrittenInKeyOrderWhateverTheMap() {
    Map<String, Object> ofOrder = Map.of("e", 5, "b", 2, "d", 4, "a", 1, "c", 3);
    Map<String, Object> hash = new HashMap<>(ofOrder);
    Map<String, Object> linked = Fields.of("c", 3, "a", 1, "e", 5, "d", 4, "b", 2);
    String expected = "a=1&b=2&c=3&d=4&e=5";
    assertThat(form(FORM, ofOrder)).isEqualTo(expected);
    assertThat(form(FORM, hash)).isEqualTo(expected);
    assertThat(form(FORM, linked)).isEqualTo(expected);
    assertThat(form(FORM, new TreeMap<>(linked))).isEqualTo(expected);
  }

  @Test
  void everyEncodingOfAValueIsByteIdentical() {
    Charge c = new Charge(2000, "usd", "Tee", Map.of("b", "2", "a", "1"), List.of("customer"));
    byte[] first = FORM.encode(c).bytes();
    for (int i = 0; i < 20; i++) {
      assertThat(FORM.encode(c).bytes()).isEqualTo(first);
    }
    assertThat(FORM.canonical(c)).isEqualTo(first);
  }

  @Test
  void aTopLevelFieldIsAddedLastWithEveryBodyShape() {
    Charge c = new Charge(2000, "usd", null, Map.of("order_id", "6735"), null);
    assertThat(new String(FORM.encode(c, "idempotency_key", "k 1").bytes(), StandardCharsets.UTF_8))
        .isEqualTo("amount=2000&currency=usd&metadata[order_id]=6735&idempotency_key=k+1");
    assertThat(
            new String(FORM.encode(null, "idempotency_key", "k").bytes(), StandardCharsets.UTF_8))
        .isEqualTo("idempotency_key=k");
    assertThat(FORM.canAddTopLevelField()).isTrue();
  }

  @Test
  void aTopLevelFieldNeverOverwritesTheCallersField() {
    assertThatThrownBy(
            () -> FORM.encode(Fields.of("idempotency_key", "mine"), "idempotency_key", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already has a field 'idempotency_key'");
  }

  @Test
  void deepOrCyclicStructuresAreRefused() {
    Map<String, Object> deep = Fields.of("leaf", "x");
    for (int i = 0; i < 40; i++) {
      deep = Fields.of("n", deep);
    }
    Map<String, Object> tooDeep = deep;
    assertThatThrownBy(() -> FORM.encode(tooDeep))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deeper than");
    Map<String, Object> cycle = new HashMap<>();
    cycle.put("self", cycle);
    assertThatThrownBy(() -> FORM.encode(cycle)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void valuesJacksonCannotMapAreRefusedClearly() {
    assertThatThrownBy(() -> FORM.encode(Fields.of("created", Instant.EPOCH)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be mapped");
    assertThatThrownBy(() -> FORM.encode(Fields.of("blob", new byte[] {1, 2})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blob");
  }

  @Test
  void encodedBodiesAreDefensiveCopies() {
    EncodedBody body = FORM.encode(Fields.of("a", "1"));
    byte[] bytes = body.bytes();
    bytes[0] = 'x';
    assertThat(body.bytes()[0]).isEqualTo((byte) 'a');
    assertThat(body.toString()).doesNotContain("a=1").contains("3 bytes");
    assertThat(new ArrayList<>(List.of(body))).containsExactly(FORM.encode(Fields.of("a", "1")));
  }
}
