package dev.saferetry;

import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.TypeRef;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.pagination.PageStyle;
import dev.saferetry.provider.StripeList;
import dev.saferetry.testing.Answers;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Pagination through the client: pages are fetched lazily, each as a call with the normal retry
 * logic, so a lost answer in the middle of a walk is retried and no item is skipped or repeated.
 */
class ClientPaginationTest extends ClientFixture {
  record Item(String id) {}

  record SquarePage(List<Item> objects, String cursor) {}

  record LinkPage(List<Item> items, String next) {}

  private static final Operation<Void, StripeList<Item>> LIST =
      Operation.get("/v1/charges", new TypeRef<StripeList<Item>>() {});

  private static String stripePage(boolean more, String... ids) {
    StringBuilder data = new StringBuilder();
    for (String id : ids) {
      data.append(data.length() == 0 ? "" : ",").append("{\"id\":\"").append(id).append("\"}");
    }
    return "{\"object\":\"list\",\"url\":\"/v1/charges\",\"has_more\":"
        + more
        + ",\"data\":["
        + data
        + "]}";
  }

  @Test
  void stripeCursorsAcrossFourPagesWithALostAnswerInTheMiddle() throws Exception {
    server.enqueue(json(200, stripePage(true, "ch_1", "ch_2")));
    server.enqueue(json(200, stripePage(true, "ch_3", "ch_4")));
    server.enqueue(Answers.dropAfterRequest()); // page 3 is lost once, then retried
    server.enqueue(json(200, stripePage(true, "ch_5", "ch_6")));
    server.enqueue(json(200, stripePage(false, "ch_7")));

    Iterable<Item> items =
        client.paginate(
            LIST, StripeList.style(Item::id), RequestOptions.none().withQueryParam("limit", 2));
    assertThat(server.getRequestCount()).as("lazy: nothing fetched yet").isZero();
    Iterator<Item> it = items.iterator();
    assertThat(it.next().id()).isEqualTo("ch_1");
    assertThat(server.getRequestCount()).as("one page at a time").isEqualTo(1);
    List<String> ids = new ArrayList<>(List.of("ch_1"));
    it.forEachRemaining(i -> ids.add(i.id()));
    assertThat(ids).containsExactly("ch_1", "ch_2", "ch_3", "ch_4", "ch_5", "ch_6", "ch_7");

    List<RecordedRequest> sent = drain(server);
    assertThat(sent)
        .extracting(r -> r.getUrl().encodedQuery())
        .containsExactly(
            "limit=2",
            "limit=2&starting_after=ch_2",
            "limit=2&starting_after=ch_4",
            "limit=2&starting_after=ch_4",
            "limit=2&starting_after=ch_6");
    assertThat(sent).allSatisfy(r -> assertThat(r.getMethod()).isEqualTo("GET"));
    assertThat(sent).allSatisfy(r -> assertThat(r.getHeaders().get("Idempotency-Key")).isNull());
  }

  @Test
  void squareStyleOpaqueCursorsAcrossThreePagesWithALostAnswer() throws Exception {
    Operation<Void, SquarePage> list = Operation.get("/v2/payments", SquarePage.class);
    server.enqueue(json(200, "{\"objects\":[{\"id\":\"p1\"}],\"cursor\":\"c+2/x\"}"));
    server.enqueue(Answers.dropAfterRequest());
    server.enqueue(json(200, "{\"objects\":[{\"id\":\"p2\"}],\"cursor\":\"c3\"}"));
    server.enqueue(json(200, "{\"objects\":[{\"id\":\"p3\"}]}"));
    List<String> ids = new ArrayList<>();
    client
        .paginate(list, PageStyle.nextCursor(SquarePage::objects, SquarePage::cursor, "cursor"))
        .forEach(i -> ids.add(i.id()));
    assertThat(ids).containsExactly("p1", "p2", "p3");
    assertThat(drain(server))
        .extracting(r -> r.getUrl().queryParameter("cursor"))
        .containsExactly(null, "c+2/x", "c+2/x", "c3");
  }

  @Test
  void nextLinksAreFollowedOnlyWithinTheBaseUrl() {
    Operation<Void, LinkPage> list = Operation.get("/v1/items", LinkPage.class);
    PageStyle<LinkPage, Item> style = PageStyle.nextLink(LinkPage::items, LinkPage::next);
    server.enqueue(json(200, "{\"items\":[{\"id\":\"a\"}],\"next\":\"/v1/items?page=2\"}"));
    server.enqueue(json(200, "{\"items\":[{\"id\":\"b\"}],\"next\":\"https://evil.example/x\"}"));
    Iterator<Item> it = client.paginate(list, style).iterator();
    assertThat(it.next().id()).isEqualTo("a");
    assertThat(it.next().id()).isEqualTo("b");
    assertThatThrownBy(it::hasNext)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("evil");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aPageThatCannotBeFetchedThrowsTheCallsException() {
    server.enqueue(json(200, stripePage(true, "ch_1")));
    for (int i = 0; i < 4; i++) {
      server.enqueue(Answers.status(503));
    }
    Iterator<Item> it = client.paginate(LIST, StripeList.style(Item::id)).iterator();
    assertThat(it.next().id()).isEqualTo("ch_1");
    assertThatThrownBy(it::hasNext).isInstanceOf(OutcomeUnknownException.class);
  }

  @Test
  void eachPageCanBeReadAsTheResultOfItsCall() {
    server.enqueue(json(200, stripePage(true, "ch_1")));
    server.enqueue(Answers.dropAfterRequest());
    server.enqueue(
        new mockwebserver3.MockResponse.Builder()
            .setHeader("Request-Id", "req_page2")
            .body(stripePage(false, "ch_2"))
            .build());
    List<CallResult<StripeList<Item>>> pages = new ArrayList<>();
    client.paginateResults(LIST, StripeList.style(Item::id)).pages().forEach(pages::add);
    assertThat(pages).hasSize(2);
    assertThat(pages.get(0).attempts()).hasSize(1);
    assertThat(pages.get(1).attempts()).hasSize(2);
    assertThat(pages.get(1).serverRequestId()).isEqualTo("req_page2");
    assertThat(pages.get(1).value().data()).extracting(Item::id).containsExactly("ch_2");
  }

  @Test
  void pagesAreNotIntents() {
    assertThatThrownBy(
            () ->
                client.paginate(
                    LIST, StripeList.style(Item::id), RequestOptions.none().withIntentId("x")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
