package dev.saferetry;

import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.saferetry.codec.QueryParams;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.pagination.PageRequest;
import dev.saferetry.pagination.PageStyle;
import dev.saferetry.pagination.PaginationException;
import dev.saferetry.provider.StripeList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * A server whose pages lead in a circle (A, B, A) is caught on the wire in every page style —
 * Stripe's {@code starting_after}, an opaque cursor, a next link, page numbers — before the
 * repeated page is fetched; an endless list stops at the configured page limit; an item without an
 * id is a typed error naming its page. A server that never ends would hang the old walk, so these
 * servers end their list after {@value #RUNAWAY} requests and the tests fail instead.
 */
class ClientPaginationCycleTest extends ClientFixture {
  private static final int RUNAWAY = 50;

  record Item(String id) {}

  record CursorPage(List<Item> objects, String cursor) {}

  record LinkPage(List<Item> items, String next) {}

  record NumberedPage(List<Item> items, int next) {}

  private final AtomicInteger requests = new AtomicInteger();
  private final List<String> queries = new ArrayList<>();

  /** Answers each request by its query; past the runaway bound, with {@code end}. */
  private void serve(Function<String, String> byQuery, String end) {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String query = request.getUrl().encodedQuery();
            synchronized (queries) {
              queries.add(query == null ? "" : query);
            }
            return json(200, requests.incrementAndGet() > RUNAWAY ? end : byQuery.apply(query));
          }
        });
  }

  private static String stripePage(boolean more, String id) {
    return "{\"object\":\"list\",\"has_more\":" + more + ",\"data\":[{\"id\":\"" + id + "\"}]}";
  }

  private static <T> List<T> drain(Iterator<T> it, List<T> into) {
    it.forEachRemaining(into::add);
    return into;
  }

  private static void assertCycle(Throwable e, int page, int repeats) {
    assertThat(e)
        .isInstanceOfSatisfying(
            PaginationException.class,
            p -> {
              assertThat(p).hasMessageContaining(": CYCLE: ");
              assertThat(p.page()).isEqualTo(page);
            })
        .hasMessageContaining("leads back to the request of page " + repeats)
        .hasMessageNotContaining("ch_A")
        .hasMessageNotContaining("cur_");
  }

  @Test
  void aStripeStartingAfterCycleIsCaughtBeforeTheRepeatedPageIsFetched() {
    Operation<Void, StripeList<Item>> list =
        Operation.get("/v1/charges", new TypeRef<StripeList<Item>>() {});
    // first -> [ch_A]; after ch_A -> [ch_B]; after ch_B -> [ch_A] again: A, B, A, ...
    serve(
        q ->
            q == null || !q.contains("starting_after=ch_A")
                ? stripePage(true, "ch_A")
                : stripePage(true, "ch_B"),
        stripePage(false, "ch_end"));
    List<Item> seen = new ArrayList<>();
    Iterator<Item> it = client.paginate(list, StripeList.style(Item::id)).iterator();
    Throwable e = catchThrowable(() -> drain(it, seen));
    assertCycle(e, 4, 2);
    assertThat(seen).extracting(Item::id).containsExactly("ch_A", "ch_B", "ch_A");
    assertThat(queries)
        .as("the repeated page was never fetched")
        .containsExactly("", "starting_after=ch_A", "starting_after=ch_B");
  }

  @Test
  void anOpaqueCursorCycleIsCaught() {
    Operation<Void, CursorPage> list = Operation.get("/v2/payments", CursorPage.class);
    PageStyle<CursorPage, Item> style =
        PageStyle.nextCursor(CursorPage::objects, CursorPage::cursor, "cursor");
    serve(
        q -> {
          String next = q != null && q.equals("cursor=cur_A") ? "cur_B" : "cur_A";
          return "{\"objects\":[{\"id\":\"x\"}],\"cursor\":\"" + next + "\"}";
        },
        "{\"objects\":[]}");
    Throwable e = catchThrowable(() -> client.paginate(list, style).stream().toList());
    assertCycle(e, 4, 2);
    assertThat(queries).containsExactly("", "cursor=cur_A", "cursor=cur_B");
  }

  @Test
  void aNextLinkCycleIsCaught() {
    Operation<Void, LinkPage> list = Operation.get("/v1/items", LinkPage.class);
    PageStyle<LinkPage, Item> style = PageStyle.nextLink(LinkPage::items, LinkPage::next);
    serve(
        q -> {
          String next = q != null && q.equals("page=cur_A") ? "cur_B" : "cur_A";
          return "{\"items\":[{\"id\":\"x\"}],\"next\":\"/v1/items?page=" + next + "\"}";
        },
        "{\"items\":[]}");
    Throwable e = catchThrowable(() -> client.paginate(list, style).stream().toList());
    assertCycle(e, 4, 2);
    assertThat(queries).containsExactly("", "page=cur_A", "page=cur_B");
  }

  @Test
  void aPageNumberCycleOfAStyleOfOnesOwnIsCaught() {
    Operation<Void, NumberedPage> list = Operation.get("/v1/items", NumberedPage.class);
    PageStyle<NumberedPage, Item> style =
        new PageStyle<>() {
          @Override
          public List<Item> items(NumberedPage page) {
            return page.items();
          }

          @Override
          public Optional<PageRequest> next(NumberedPage page) {
            return page.next() == 0
                ? Optional.empty()
                : Optional.of(
                    PageRequest.cursor(QueryParams.empty().and("page", page.next()).and("per", 1)));
          }
        };
    // page 1 -> 2 -> 3 -> 2 -> ...
    serve(
        q -> {
          int next = q == null ? 2 : q.startsWith("page=2") ? 3 : 2;
          return "{\"items\":[{\"id\":\"x\"}],\"next\":" + next + "}";
        },
        "{\"items\":[],\"next\":0}");
    Throwable e = catchThrowable(() -> client.paginate(list, style).stream().toList());
    assertCycle(e, 4, 2);
    assertThat(queries).containsExactly("", "page=2&per=1", "page=3&per=1");
  }

  @Test
  void anEndlessListStopsAtTheConfiguredPageLimit() {
    Operation<Void, CursorPage> list = Operation.get("/v2/payments", CursorPage.class);
    PageStyle<CursorPage, Item> style =
        PageStyle.nextCursor(CursorPage::objects, CursorPage::cursor, "cursor");
    serve(
        q -> "{\"objects\":[{\"id\":\"x\"}],\"cursor\":\"cur_" + requests.get() + "\"}",
        "{\"objects\":[]}");
    List<Item> seen = new ArrayList<>();
    Iterator<Item> it = client.paginate(list, style).maxPages(5).iterator();
    assertThatThrownBy(() -> drain(it, seen))
        .isInstanceOfSatisfying(
            PaginationException.class,
            p -> {
              assertThat(p).hasMessageContaining(": TOO_MANY_PAGES: ");
              assertThat(p.page()).isEqualTo(6);
            })
        .hasMessageContaining("limit of 5 pages")
        .hasMessageNotContaining("cur_");
    assertThat(seen).hasSize(5);
    assertThat(server.getRequestCount()).isEqualTo(5);
  }

  @Test
  void aStripeItemWithoutAnIdIsATypedErrorNamingItsPage() {
    Operation<Void, StripeList<Item>> list =
        Operation.get("/v1/charges", new TypeRef<StripeList<Item>>() {});
    serve(
        q ->
            q == null
                ? stripePage(true, "ch_1")
                : "{\"object\":\"list\",\"has_more\":true,\"data\":[{\"id\":\"ch_2\"},"
                    + "{\"amount\":100}]}",
        stripePage(false, "ch_end"));
    List<Item> seen = new ArrayList<>();
    Iterator<Item> it = client.paginate(list, StripeList.style(Item::id)).iterator();
    assertThatThrownBy(() -> drain(it, seen))
        .isInstanceOfSatisfying(
            PaginationException.class,
            p -> {
              assertThat(p).hasMessageContaining(": MALFORMED_PAGE: ");
              assertThat(p.page()).isEqualTo(2);
            })
        .hasMessageContaining("page 2")
        .hasMessageContaining("last item has no id");
    assertThat(seen).extracting(Item::id).containsExactly("ch_1", "ch_2", null);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }
}
