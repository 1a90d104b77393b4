package dev.saferetry.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.internal.ResponseReader;
import dev.saferetry.pagination.PageRequest;
import dev.saferetry.pagination.PagedIterable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stripe's list object, decoded as a generic page and walked with Stripe's page style. */
class StripeListTest {
  private static final ResponseReader READER =
      new ResponseReader(
          new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false));
  private static final TypeRef<StripeList<Charge>> PAGE = new TypeRef<StripeList<Charge>>() {};

  static String charge(String id) {
    return "{\"id\":\"" + id + "\",\"object\":\"charge\",\"amount\":100,\"currency\":\"usd\"}";
  }

  static String page(boolean hasMore, String... ids) {
    List<String> items = new ArrayList<>();
    for (String id : ids) {
      items.add(charge(id));
    }
    return "{\"object\":\"list\",\"url\":\"/v1/charges\",\"has_more\":"
        + hasMore
        + ",\"data\":["
        + String.join(",", items)
        + "]}";
  }

  static StripeList<Charge> read(String json) {
    try {
      return READER.read(json.getBytes(StandardCharsets.UTF_8), PAGE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aStripeListDecodesWithTypedItems() {
    StripeList<Charge> list = read(page(true, "ch_3", "ch_2"));
    assertThat(list.object()).isEqualTo("list");
    assertThat(list.url()).isEqualTo("/v1/charges");
    assertThat(list.hasMore()).isTrue();
    assertThat(list.data()).extracting(Charge::id).containsExactly("ch_3", "ch_2");
    assertThat(read("{\"object\":\"list\",\"has_more\":false}").data()).isEmpty();
  }

  @Test
  void stripesStyleAsksForTheNextPageAfterTheLastId() {
    List<String> pages =
        List.of(page(true, "ch_5", "ch_4"), page(true, "ch_3", "ch_2"), page(false, "ch_1"));
    List<PageRequest> asked = new ArrayList<>();
    List<String> ids =
        PagedIterable.of(
                StripeList.style(Charge::id),
                r -> {
                  asked.add(r);
                  return read(pages.get(asked.size() - 1));
                })
            .stream()
            .map(Charge::id)
            .toList();
    assertThat(ids).containsExactly("ch_5", "ch_4", "ch_3", "ch_2", "ch_1");
    assertThat(asked)
        .containsExactly(
            PageRequest.first(),
            PageRequest.cursor("starting_after", "ch_4"),
            PageRequest.cursor("starting_after", "ch_2"));
  }
}
