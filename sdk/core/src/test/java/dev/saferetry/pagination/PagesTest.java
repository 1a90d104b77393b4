package dev.saferetry.pagination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.QueryParams;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Lazy iteration across pages, with a fetch that fails in the middle. */
class PagesTest {
  record Item(String id) {}

  /** Stripe's shape: data, has_more. */
  record StripePage(List<Item> data, boolean hasMore) {}

  /** GoCardless's shape: items and meta.cursors.after. */
  record GoCardlessPage(List<Item> payments, Meta meta) {
    record Meta(Cursors cursors) {}

    record Cursors(String after) {}
  }

  /** PayPal's shape: items and a next link. */
  record PayPalPage(List<Item> items, String next) {}

  static final List<Item> ALL = IntStream.range(0, 7).mapToObj(i -> new Item("it_" + i)).toList();

  /** A list API of 7 items, 2 per page, that loses the answers named in {@code failOnce}. */
  static final class FakeList {
    final List<String> requests = new ArrayList<>();
    final Set<Integer> failOnce = new CopyOnWriteArraySet<>();

    /** Returns the offset a request starts at, or fails it once if asked to. */
    int start(PageRequest request, String name) {
      requests.add(
          request.isFirst()
              ? "first"
              : request.link().orElse(request.applyTo(QueryParams.of("limit", "2")).encode()));
      int call = requests.size();
      if (failOnce.remove(call)) {
        throw new IllegalStateException("response lost on call " + call);
      }
      if (request.isFirst()) {
        return 0;
      }
      String after =
          request
              .link()
              .map(l -> l.substring(l.lastIndexOf('=') + 1))
              .orElseGet(() -> request.cursorParameters().first(name));
      int i = 0;
      while (!ALL.get(i).id().equals(after)) {
        i++;
      }
      return i + 1;
    }

    List<Item> slice(int start) {
      return ALL.subList(start, Math.min(start + 2, ALL.size()));
    }

    StripePage stripe(PageRequest r) {
      int s = start(r, "starting_after");
      return new StripePage(slice(s), s + 2 < ALL.size());
    }

    GoCardlessPage goCardless(PageRequest r) {
      int s = start(r, "after");
      List<Item> page = slice(s);
      String after = s + 2 < ALL.size() ? page.get(page.size() - 1).id() : null;
      return new GoCardlessPage(page, new GoCardlessPage.Meta(new GoCardlessPage.Cursors(after)));
    }

    PayPalPage payPal(PageRequest r) {
      int s = start(r, null);
      List<Item> page = slice(s);
      String next =
          s + 2 < ALL.size()
              ? "https://api-m.paypal.com/v1/items?after=" + page.get(page.size() - 1).id()
              : null;
      return new PayPalPage(page, next);
    }
  }

  static final PageStyle<StripePage, Item> STRIPE =
      PageStyle.afterLastItem(StripePage::data, StripePage::hasMore, Item::id, "starting_after");
  static final PageStyle<GoCardlessPage, Item> GOCARDLESS =
      PageStyle.nextCursor(GoCardlessPage::payments, p -> p.meta().cursors().after(), "after");
  static final PageStyle<PayPalPage, Item> PAYPAL =
      PageStyle.nextLink(PayPalPage::items, PayPalPage::next);

  /** Iterates to the end, continuing after every failure; returns the items seen. */
  static List<Item> drainThroughFailures(Iterator<Item> it, List<String> failures) {
    List<Item> seen = new ArrayList<>();
    while (true) {
      try {
        if (!it.hasNext()) {
          return seen;
        }
        seen.add(it.next());
      } catch (IllegalStateException e) {
        failures.add(e.getMessage());
      }
    }
  }

  @Test
  void stripeStyleWalksFourPagesAndSurvivesALostAnswerInTheMiddle() {
    FakeList api = new FakeList();
    api.failOnce.add(3); // the third page's first fetch
    List<String> failures = new ArrayList<>();
    List<Item> seen =
        drainThroughFailures(PagedIterable.of(STRIPE, api::stripe).iterator(), failures);
    assertThat(seen).containsExactlyElementsOf(ALL);
    assertThat(failures).containsExactly("response lost on call 3");
    assertThat(api.requests)
        .containsExactly(
            "first",
            "limit=2&starting_after=it_1",
            "limit=2&starting_after=it_3",
            "limit=2&starting_after=it_3",
            "limit=2&starting_after=it_5");
  }

  @Test
  void goCardlessCursorStyleSurvivesALostAnswerInTheMiddle() {
    FakeList api = new FakeList();
    api.failOnce.add(2);
    List<String> failures = new ArrayList<>();
    List<Item> seen =
        drainThroughFailures(PagedIterable.of(GOCARDLESS, api::goCardless).iterator(), failures);
    assertThat(seen).containsExactlyElementsOf(ALL);
    assertThat(failures).hasSize(1);
    assertThat(api.requests)
        .containsExactly(
            "first",
            "limit=2&after=it_1",
            "limit=2&after=it_1",
            "limit=2&after=it_3",
            "limit=2&after=it_5");
  }

  @Test
  void payPalLinkStyleFollowsNextLinks() {
    FakeList api = new FakeList();
    api.failOnce.add(4);
    List<String> failures = new ArrayList<>();
    List<Item> seen =
        drainThroughFailures(PagedIterable.of(PAYPAL, api::payPal).iterator(), failures);
    assertThat(seen).containsExactlyElementsOf(ALL);
    assertThat(api.requests).hasSize(5).startsWith("first");
    assertThat(api.requests.get(3)).isEqualTo(api.requests.get(4)).endsWith("after=it_5");
  }

  @Test
  void nothingIsFetchedBeforeItIsNeeded() {
    FakeList api = new FakeList();
    PagedIterable<StripePage, Item> all = PagedIterable.of(STRIPE, api::stripe);
    assertThat(api.requests).isEmpty();
    Iterator<Item> it = all.iterator();
    assertThat(api.requests).isEmpty();
    it.next();
    it.next();
    assertThat(api.requests).hasSize(1);
    assertThat(it.hasNext()).isTrue();
    assertThat(api.requests).hasSize(2);
    assertThat(all.stream().limit(3).toList()).hasSize(3);
    assertThat(api.requests).hasSize(4); // a second walk started again at the first page
  }

  @Test
  void pagesCanBeWalkedThemselves() {
    FakeList api = new FakeList();
    List<Integer> sizes = new ArrayList<>();
    for (StripePage page : PagedIterable.of(STRIPE, api::stripe).pages()) {
      sizes.add(page.data().size());
    }
    assertThat(sizes).containsExactly(2, 2, 2, 1);
  }

  @Test
  void theEndIsTheEnd() {
    FakeList api = new FakeList();
    Iterator<Item> it = PagedIterable.of(STRIPE, api::stripe).iterator();
    IntStream.range(0, 7).forEach(i -> it.next());
    assertThat(it.hasNext()).isFalse();
    assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    assertThat(api.requests).hasSize(4);
  }

  @Test
  void emptyPagesInTheMiddleAreSkippedAndAMissingListIsEmpty() {
    List<GoCardlessPage> pages =
        List.of(
            new GoCardlessPage(List.of(), meta("c1")),
            new GoCardlessPage(null, meta("c2")),
            new GoCardlessPage(List.of(new Item("x")), meta(null)));
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, GoCardlessPage> fetch =
        r -> {
          asked.add(r);
          return pages.get(asked.size() - 1);
        };
    assertThat(PagedIterable.of(GOCARDLESS, fetch).stream().toList())
        .containsExactly(new Item("x"));
    assertThat(asked)
        .containsExactly(
            PageRequest.first(),
            PageRequest.cursor("after", "c1"),
            PageRequest.cursor("after", "c2"));
  }

  @Test
  void aServerRepeatingTheSameCursorStopsTheWalk() {
    List<PageRequest> asked = new ArrayList<>();
    Function<PageRequest, GoCardlessPage> stuck =
        r -> {
          asked.add(r);
          return new GoCardlessPage(List.of(new Item("x" + asked.size())), meta("same"));
        };
    Iterator<Item> it = PagedIterable.of(GOCARDLESS, stuck).iterator();
    assertThat(it.next()).isEqualTo(new Item("x1")); // the first page; its cursor asks for page 2
    assertThat(it.next()).isEqualTo(new Item("x2")); // page 2 answers with its own cursor again
    assertThatThrownBy(it::hasNext)
        .isInstanceOfSatisfying(
            PaginationException.class,
            e -> {
              assertThat(e).hasMessageContaining(": CYCLE: ");
              assertThat(e.page()).isEqualTo(3);
            })
        .hasMessageContaining("page 2 leads back to the request of page 2")
        .hasMessageNotContaining("same");
    assertThatThrownBy(it::hasNext).isInstanceOf(PaginationException.class); // and stays stopped
    assertThat(asked).hasSize(2);
  }

  @Test
  void hasMoreWithoutItemsCannotContinue() {
    Iterator<Item> it = PagedIterable.of(STRIPE, r -> new StripePage(List.of(), true)).iterator();
    assertThatThrownBy(it::hasNext)
        .isInstanceOfSatisfying(
            PaginationException.class,
            e -> {
              assertThat(e).hasMessageContaining(": MALFORMED_PAGE: ");
              assertThat(e.page()).isEqualTo(1);
            })
        .hasMessageContaining("has none to continue after");
  }

  @Test
  void cursorsReplaceTheirParameterAndKeepTheRest() {
    QueryParams list = QueryParams.empty().and("limit", 2).and("expand[]", "data.customer");
    assertThat(PageRequest.cursor("starting_after", "ch_2").applyTo(list).encode())
        .isEqualTo("limit=2&expand[]=data.customer&starting_after=ch_2");
    assertThat(PageRequest.first().applyTo(list)).isSameAs(list);
    assertThat(PageRequest.link("https://x/y").toString()).doesNotContain("https");
    assertThatThrownBy(() -> PageRequest.link(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PageRequest.cursor(QueryParams.empty()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static GoCardlessPage.Meta meta(String after) {
    return new GoCardlessPage.Meta(new GoCardlessPage.Cursors(after));
  }
}
