package dev.saferetry.pagination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.QueryParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A walk never follows the server blindly: endless lists stop at the page limit, cycles through any
 * page (the first one included) are caught whatever the parameter order, and a page that cannot be
 * continued from ends the walk with a typed error naming the page.
 */
class PaginationLimitsTest {
  record Item(String id) {}

  record Page(List<Item> items, String cursor) {}

  record StripePage(List<Item> data, boolean hasMore) {}

  static final PageStyle<Page, Item> CURSOR = PageStyle.nextCursor(Page::items, Page::cursor, "c");
  static final PageStyle<StripePage, Item> STRIPE =
      PageStyle.afterLastItem(StripePage::data, StripePage::hasMore, Item::id, "starting_after");

  /** Fails the test instead of hanging: past this many fetches a broken walk is cut short. */
  private static final int RUNAWAY = 20_000;

  private static Consumer<PaginationException> failure(String check, int page) {
    return e -> {
      assertThat(e)
          .hasMessageStartingWith("pagination stopped at page " + page + ": " + check + ": ");
      assertThat(e.page()).isEqualTo(page);
    };
  }

  @Test
  void anEndlessListStopsAfterTenThousandPagesByDefault() {
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, Page> endless =
        r -> {
          asked.add(r);
          String next = asked.size() < RUNAWAY ? "p" + asked.size() : null;
          return new Page(List.of(new Item("i" + asked.size())), next);
        };
    PagedIterable<Page, Item> all = PagedIterable.of(CURSOR, endless);
    assertThat(all.maxPages()).isEqualTo(PagedIterable.DEFAULT_MAX_PAGES).isEqualTo(10_000);
    Iterator<Item> it = all.iterator();
    int seen = 0;
    try {
      while (it.hasNext()) {
        it.next();
        seen++;
      }
    } catch (PaginationException e) {
      assertThat(e).satisfies(failure("TOO_MANY_PAGES", 10_001));
      assertThat(e).hasMessageContaining("10000").hasMessageNotContaining("p10000");
    }
    assertThat(seen).as("every item of the allowed pages was handed out").isEqualTo(10_000);
    assertThat(asked).hasSize(10_000);
    assertThatThrownBy(it::hasNext).isInstanceOf(PaginationException.class);
    assertThat(asked).as("and nothing more is fetched").hasSize(10_000);
  }

  @Test
  void thePageLimitIsConfigurableAndValidated() {
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, Page> endless =
        r -> {
          asked.add(r);
          return new Page(List.of(new Item("i")), asked.size() < RUNAWAY ? "p" + asked.size() : "");
        };
    PagedIterable<Page, Item> three = PagedIterable.of(CURSOR, endless).maxPages(3);
    Iterator<Page> pages = three.pages().iterator();
    pages.next();
    pages.next();
    pages.next();
    assertThat(pages.hasNext()).as("the server names a fourth page").isTrue();
    assertThatThrownBy(pages::next)
        .isInstanceOfSatisfying(PaginationException.class, failure("TOO_MANY_PAGES", 4));
    assertThat(asked).hasSize(3);
    assertThat(PagedIterable.of(CURSOR, endless).maxPages(1).maxPages()).isEqualTo(1);
    for (int bad : new int[] {0, -1, Integer.MIN_VALUE, PagedIterable.MAX_PAGES_LIMIT + 1}) {
      assertThatThrownBy(() -> three.maxPages(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("maxPages");
    }
  }

  @Test
  void aListThatEndsExactlyAtTheLimitIsNotAnError() {
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, Page> two =
        r -> {
          asked.add(r);
          return new Page(List.of(new Item("i" + asked.size())), asked.size() < 2 ? "p" : null);
        };
    assertThat(PagedIterable.of(CURSOR, two).maxPages(2).stream().toList())
        .containsExactly(new Item("i1"), new Item("i2"));
  }

  @Test
  void aCycleBackToTheFirstPageIsCaught() {
    // A style of one's own: page numbers, where the server's "next" is page 1 again.
    PageStyle<Page, Item> pageNumbers =
        new PageStyle<>() {
          @Override
          public List<Item> items(Page page) {
            return page.items();
          }

          @Override
          public Optional<PageRequest> next(Page page) {
            return page.cursor().equals("1")
                ? Optional.of(PageRequest.first())
                : Optional.of(PageRequest.cursor("page", page.cursor()));
          }
        };
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, Page> server =
        r -> {
          asked.add(r);
          String next = asked.size() >= RUNAWAY ? "end" : asked.size() == 1 ? "2" : "1";
          return new Page(List.of(new Item("i" + asked.size())), next);
        };
    Iterator<Item> it = PagedIterable.of(pageNumbers, server).iterator();
    assertThat(it.next()).isEqualTo(new Item("i1"));
    assertThat(it.next()).isEqualTo(new Item("i2"));
    assertThatThrownBy(it::hasNext)
        .isInstanceOfSatisfying(PaginationException.class, failure("CYCLE", 3))
        .hasMessageContaining("leads back to the request of page 1");
    assertThat(asked).hasSize(2);
  }

  @Test
  void reorderedCursorParametersStillNameTheSamePage() {
    // offset/limit pages: the server alternates the order of its two parameters, A -> B -> A'.
    QueryParams a = QueryParams.empty().and("offset", "2").and("limit", "2");
    QueryParams b = QueryParams.empty().and("offset", "4").and("limit", "2");
    QueryParams aReordered = QueryParams.empty().and("limit", "2").and("offset", "2");
    List<QueryParams> nexts = List.of(a, b, aReordered);
    List<PageRequest> asked = new ArrayList<>();
    PageStyle<Integer, Item> offsets =
        new PageStyle<>() {
          @Override
          public List<Item> items(Integer page) {
            return List.of(new Item("i" + page));
          }

          @Override
          public Optional<PageRequest> next(Integer page) {
            return page >= RUNAWAY
                ? Optional.empty()
                : Optional.of(PageRequest.cursor(nexts.get(Math.min(page - 1, 2))));
          }
        };
    Function<PageRequest, Integer> server =
        r -> {
          asked.add(r);
          return asked.size();
        };
    List<Item> seen = new ArrayList<>();
    Iterator<Item> it = PagedIterable.of(offsets, server).iterator();
    assertThatThrownBy(() -> it.forEachRemaining(seen::add))
        .isInstanceOfSatisfying(PaginationException.class, failure("CYCLE", 4))
        .hasMessageContaining("page 3 leads back to the request of page 2");
    assertThat(seen).extracting(Item::id).containsExactly("i1", "i2", "i3");
  }

  @Test
  void aLastItemWithoutAnIdEndsTheWalkNamingItsPageAfterItsItems() {
    List<StripePage> pages =
        List.of(
            new StripePage(List.of(new Item("ch_1")), true),
            new StripePage(List.of(new Item("ch_2"), new Item(null)), true));
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, StripePage> server =
        r -> {
          asked.add(r);
          return pages.get(Math.min(asked.size() - 1, 1));
        };
    List<Item> seen = new ArrayList<>();
    Iterator<Item> it = PagedIterable.of(STRIPE, server).iterator();
    assertThatThrownBy(() -> it.forEachRemaining(seen::add))
        .isInstanceOfSatisfying(PaginationException.class, failure("MALFORMED_PAGE", 2))
        .hasMessageContaining("its last item has no id");
    assertThat(seen).containsExactly(new Item("ch_1"), new Item("ch_2"), new Item(null));
    assertThat(asked).hasSize(2);

    StripePage emptyId = new StripePage(List.of(new Item("")), true);
    assertThatThrownBy(() -> PagedIterable.of(STRIPE, r -> emptyId).stream().toList())
        .isInstanceOfSatisfying(PaginationException.class, failure("MALFORMED_PAGE", 1));
    StripePage nullItem = new StripePage(Arrays.asList(new Item("ch_1"), null), true);
    assertThatThrownBy(() -> PagedIterable.of(STRIPE, r -> nullItem).stream().toList())
        .isInstanceOfSatisfying(PaginationException.class, failure("MALFORMED_PAGE", 1));
  }

  @Test
  void anUnusableCursorOrAStyleThatThrowsIsAMalformedPageWithoutServerText() {
    Page lone = new Page(List.of(new Item("x")), "cur\uD800sor-secret");
    assertThatThrownBy(() -> PagedIterable.of(CURSOR, r -> lone).stream().toList())
        .isInstanceOfSatisfying(PaginationException.class, failure("MALFORMED_PAGE", 1))
        .hasMessageNotContaining("secret");

    PageStyle<Page, Item> throwing =
        PageStyle.nextCursor(
            p -> {
              throw new IllegalStateException("server said token-secret");
            },
            Page::cursor,
            "c");
    List<PageRequest> asked = new ArrayList<>();
    Iterator<Item> it =
        PagedIterable.of(
                throwing,
                r -> {
                  asked.add(r);
                  return lone;
                })
            .iterator();
    assertThatThrownBy(it::hasNext)
        .isInstanceOfSatisfying(PaginationException.class, failure("MALFORMED_PAGE", 1))
        .hasMessageContaining("IllegalStateException")
        .hasMessageNotContaining("secret")
        .hasCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(it::hasNext).isInstanceOf(PaginationException.class);
    assertThat(asked).as("an unreadable page is fetched again, like a failed fetch").hasSize(2);
  }

  @Test
  void aFetchThatReturnsNoPageIsTypedAndKeepsThePlace() {
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, Page> flaky =
        r -> {
          asked.add(r);
          return asked.size() == 2 ? null : new Page(List.of(new Item("i" + asked.size())), null);
        };
    Iterator<Item> it =
        PagedIterable.of(
                PageStyle.nextCursor(Page::items, p -> asked.size() < 3 ? "p" : null, "c"), flaky)
            .iterator();
    assertThat(it.next()).isEqualTo(new Item("i1"));
    assertThatThrownBy(it::hasNext)
        .isInstanceOfSatisfying(PaginationException.class, failure("NO_PAGE", 2));
    assertThat(it.next()).isEqualTo(new Item("i3"));
    assertThat(it.hasNext()).isFalse();
    assertThat(asked.get(1)).isEqualTo(asked.get(2)); // the same page was asked for again
  }
}
