package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** Query parameters: order, repeats and the exact encoding. */
class QueryParamsTest {

  @Test
  void parametersKeepTheirOrderAndRepeat() {
    QueryParams q =
        QueryParams.empty()
            .and("limit", 3)
            .and("expand[]", "data.customer")
            .and("expand[]", "data.invoice")
            .and("created[gte]", 1_700_000_000L)
            .and("paid", true);
    assertThat(q.encode())
        .isEqualTo(
            "limit=3&expand[]=data.customer&expand[]=data.invoice&created[gte]=1700000000&paid=true");
    assertThat(q.names()).containsExactly("limit", "expand[]", "created[gte]", "paid");
    assertThat(q.values("expand[]")).containsExactly("data.customer", "data.invoice");
    assertThat(q.first("limit")).isEqualTo("3");
    assertThat(q.first("absent")).isNull();
    assertThat(q.values("absent")).isEmpty();
  }

  @Test
  void reservedCharactersInNamesAndValuesAreEscaped() {
    QueryParams q = QueryParams.empty().and("q", "a b+c&d=e[f]%g/h?i#jé😀");
    assertThat(q.encode())
        .isEqualTo("q=a%20b%2Bc%26d%3De%5Bf%5D%25g%2Fh%3Fi%23j%C3%A9%F0%9F%98%80");
    assertThat(QueryParams.of("a b&c", "").encode()).isEqualTo("a%20b%26c=");
  }

  @Test
  void addAllAddsOneParameterPerValue() {
    assertThat(QueryParams.empty().andAll("expand[]", List.of("a", "b")).encode())
        .isEqualTo("expand[]=a&expand[]=b");
  }

  /** "Aa" and "BB" share a hash code: a HashSet hands them out in the order they were added. */
  @Test
  void addAllAddsTheValuesOfASetSortedWhateverOrderItIterates() {
    Set<String> forward = new HashSet<>(List.of("Aa", "BB"));
    Set<String> backward = new HashSet<>();
    backward.add("BB");
    backward.add("Aa");
    backward.add("c");
    forward.add("c");
    assertThat(new ArrayList<>(forward)).isNotEqualTo(new ArrayList<>(backward));
    for (Set<String> set : List.of(forward, backward, Set.of("c", "BB", "Aa"))) {
      assertThat(QueryParams.empty().andAll("expand[]", set).encode())
          .isEqualTo("expand[]=Aa&expand[]=BB&expand[]=c");
    }
    assertThat(QueryParams.empty().andAll("e", List.of("b", "a")).encode()).isEqualTo("e=b&e=a");
  }

  @Test
  void withReplacesEveryValueOfANameInPlaceOfTheFirst() {
    QueryParams base =
        QueryParams.empty()
            .and("limit", 2)
            .and("starting_after", "ch_1")
            .and("expand[]", "x")
            .and("starting_after", "ch_0");
    QueryParams next = base.with(QueryParams.of("starting_after", "ch_9"));
    assertThat(next.encode()).isEqualTo("limit=2&starting_after=ch_9&expand[]=x");
    assertThat(base.encode()).contains("ch_1"); // unchanged
    assertThat(QueryParams.of("limit", "2").with(QueryParams.of("cursor", "c")).encode())
        .isEqualTo("limit=2&cursor=c");
    assertThat(base.with(QueryParams.empty())).isSameAs(base);
  }

  @Test
  void noParametersEncodeToNothing() {
    assertThat(QueryParams.empty().encode()).isEmpty();
    assertThat(QueryParams.empty().andAll("e", List.of())).isSameAs(QueryParams.empty());
  }

  @Test
  void badNamesAndTextAreRefusedWithoutEchoingValues() {
    assertThatThrownBy(() -> QueryParams.of("", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QueryParams.of("q", "pin-\uD83D"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate")
        .hasMessageNotContaining("pin-");
    assertThatThrownBy(() -> QueryParams.of("\uDE00", "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toStringShowsNamesNotValues() {
    assertThat(QueryParams.of("email", "jenny@example.com").toString())
        .contains("email")
        .doesNotContain("jenny");
  }

  @Test
  void okHttpSendsTheEncodedQueryUnchangedAndDecodesItBack() {
    QueryParams q =
        QueryParams.empty().and("expand[]", "a b").and("expand[]", "c+d").and("email", "x&y=z@é");
    HttpUrl url =
        HttpUrl.get("https://api.example.com/v1/charges")
            .newBuilder()
            .encodedQuery(q.encode())
            .build();
    assertThat(url.encodedQuery()).isEqualTo(q.encode());
    assertThat(url.queryParameterValues("expand[]")).containsExactly("a b", "c+d");
    assertThat(url.queryParameter("email")).isEqualTo("x&y=z@é");
  }
}
