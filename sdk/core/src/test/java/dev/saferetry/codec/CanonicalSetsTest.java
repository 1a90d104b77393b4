package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Sets and other unordered collections in both codecs: a set is written sorted, so equal sets are
 * equal bytes whatever order the set hands out its elements in; a collection without an order is
 * refused. ("Aa" and "BB" share a hash code: a HashSet keeps them in insertion order.)
 */
class CanonicalSetsTest {
  private static final BodyCodec JSON = BodyCodec.json();
  private static final BodyCodec FORM = BodyCodec.form();

  enum Method {
    CARD,
    BANK,
    WALLET
  }

  record Item(String price, int quantity) {}

  record RawNote(@JsonRawValue String json) {}

  record Checkout(Set<String> tags, Set<Method> methods, Set<Item> items) {}

  static String text(BodyCodec codec, Object value) {
    return new String(codec.encode(value).bytes(), StandardCharsets.UTF_8);
  }

  private static Set<String> hashSet(String... inOrder) {
    Set<String> set = new HashSet<>(2); // small table: every element in view of the others
    set.addAll(Arrays.asList(inOrder));
    return set;
  }

  @Test
  void aSetIsWrittenInTheSameOrderWhateverOrderItIterates() {
    Set<String> forward = hashSet("Aa", "BB", "c");
    Set<String> backward = hashSet("BB", "Aa", "c");
    assertThat(new ArrayList<>(forward)).isNotEqualTo(new ArrayList<>(backward)); // the hazard
    Set<String> reversedTree = new TreeSet<>(Comparator.reverseOrder());
    reversedTree.addAll(forward);
    List<Set<String>> sameSet =
        List.of(
            forward,
            backward,
            new LinkedHashSet<>(List.of("c", "BB", "Aa")),
            reversedTree,
            Set.of("BB", "c", "Aa"),
            Collections.unmodifiableSet(backward));
    for (Set<String> set : sameSet) {
      assertThat(text(JSON, Fields.of("tags", set))).isEqualTo("{\"tags\":[\"Aa\",\"BB\",\"c\"]}");
      assertThat(text(FORM, Fields.of("tags", set))).isEqualTo("tags[]=Aa&tags[]=BB&tags[]=c");
    }
  }

  @Test
  void setsOfEnumsNumbersAndObjectsAreSortedByTheirWrittenValues() {
    Set<Item> items =
        new HashSet<>(List.of(new Item("p2", 1), new Item("p1", 2), new Item("p1", 1)));
    Checkout checkout =
        new Checkout(
            hashSet("BB", "Aa"),
            new HashSet<>(List.of(Method.WALLET, Method.BANK, Method.CARD)),
            items);
    assertThat(text(JSON, checkout))
        .isEqualTo(
            "{\"items\":[{\"price\":\"p1\",\"quantity\":1},{\"price\":\"p1\",\"quantity\":2},"
                + "{\"price\":\"p2\",\"quantity\":1}],\"methods\":[\"BANK\",\"CARD\",\"WALLET\"],"
                + "\"tags\":[\"Aa\",\"BB\"]}");
    assertThat(text(FORM, checkout))
        .isEqualTo(
            "tags[]=Aa&tags[]=BB&methods[]=BANK&methods[]=CARD&methods[]=WALLET"
                + "&items[0][price]=p1&items[0][quantity]=1&items[1][price]=p1"
                + "&items[1][quantity]=2&items[2][price]=p2&items[2][quantity]=1");
    assertThat(text(JSON, Fields.of("m", EnumSet.allOf(Method.class))))
        .isEqualTo("{\"m\":[\"BANK\",\"CARD\",\"WALLET\"]}");
    Set<Object> numbers =
        new HashSet<>(List.of(10, 9, -1, 100L, new BigDecimal("1.00"), new BigDecimal("1.0"), 0.5));
    assertThat(text(JSON, Fields.of("n", numbers))).isEqualTo("{\"n\":[-1,0.5,1.0,1.00,9,10,100]}");
    assertThat(text(FORM, Fields.of("n", numbers)))
        .isEqualTo("n[]=-1&n[]=0.5&n[]=1.0&n[]=1.00&n[]=9&n[]=10&n[]=100");
  }

  @Test
  void setsInsideSetsListsAndMapsAreSortedAtEveryLevel() {
    Set<Set<String>> nested =
        new HashSet<>(List.of(hashSet("BB", "Aa"), hashSet("Aa"), Set.of(), hashSet("c", "Aa")));
    Map<String, Object> body =
        Fields.of(
            "nested",
            nested,
            "list",
            List.of(hashSet("BB", "Aa")),
            "map",
            Map.of("k", hashSet("BB", "Aa")));
    assertThat(text(JSON, body))
        .isEqualTo(
            "{\"list\":[[\"Aa\",\"BB\"]],\"map\":{\"k\":[\"Aa\",\"BB\"]},"
                + "\"nested\":[[],[\"Aa\"],[\"Aa\",\"BB\"],[\"Aa\",\"c\"]]}");
    assertThat(text(FORM, body))
        .isEqualTo(
            "list[0][]=Aa&list[0][]=BB&map[k][]=Aa&map[k][]=BB&nested[0]=&nested[1][]=Aa"
                + "&nested[2][]=Aa&nested[2][]=BB&nested[3][]=Aa&nested[3][]=c");
  }

  @Test
  void nullAndMixedElementsHaveAFixedPlaceInASet() {
    Set<Object> mixed =
        new HashSet<>(Arrays.asList("x", null, 2, true, false, List.of(1), Map.of("a", 1)));
    assertThat(text(JSON, Fields.of("s", mixed)))
        .isEqualTo("{\"s\":[null,false,true,2,\"x\",[1],{\"a\":1}]}");
  }

  /** "\"Aa\"" and "\"BB\"" share a hash code too. */
  @Test
  void rawJsonInASetIsOrderedByItsText() {
    for (List<String> order : List.of(List.of("\"Aa\"", "\"BB\""), List.of("\"BB\"", "\"Aa\""))) {
      Set<RawNote> notes = new HashSet<>(2);
      order.forEach(json -> notes.add(new RawNote(json)));
      assertThat(text(JSON, Fields.of("notes", notes)))
          .isEqualTo("{\"notes\":[{\"json\":\"Aa\"},{\"json\":\"BB\"}]}");
    }
  }

  @Test
  void aCollectionWithoutAnOrderIsRefusedNamingTheField() {
    Map<String, Integer> prices = new HashMap<>(Map.of("a", 1, "b", 2));
    List<Object> unordered = List.of(prices.values(), new PriorityQueue<>(List.of(3, 1, 2)));
    for (Object collection : unordered) {
      for (BodyCodec codec : List.of(JSON, FORM)) {
        assertThatThrownBy(() -> codec.encode(Fields.of("order", Fields.of("prices", collection))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("value of order[prices] is a " + collection.getClass().getName())
            .hasMessageContaining("without a defined order")
            .hasMessageContaining("Pass a List");
      }
    }
  }

  @Test
  void mapKeysThatDifferButSortAsEqualAreRefusedRatherThanOneDropped() {
    Map<BigDecimal, String> byRate = new HashMap<>();
    byRate.put(new BigDecimal("1.0"), "first");
    byRate.put(new BigDecimal("1.00"), "second");
    for (BodyCodec codec : List.of(JSON, FORM)) {
      assertThatThrownBy(() -> codec.encode(Fields.of("rates", byRate)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("the map at rates has keys that differ but sort as equal");
    }
    Map<Integer, String> byNumber = new HashMap<>(Map.of(10, "ten", 9, "nine"));
    assertThat(text(JSON, Fields.of("m", byNumber)))
        .isEqualTo("{\"m\":{\"9\":\"nine\",\"10\":\"ten\"}}");
  }
}
