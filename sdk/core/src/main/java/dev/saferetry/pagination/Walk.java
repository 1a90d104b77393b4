package dev.saferetry.pagination;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * One walk through a paged list. The state moves only after a fetch succeeded, which is what lets
 * an iterator continue after a failed fetch without skipping or repeating items.
 *
 * <p>A server decides where the walk goes next, so the walk bounds it: a next request that repeats
 * one of this walk's earlier requests (a cursor cycle such as A, B, A) and a page beyond the limit
 * are never fetched. Either ends the walk with a {@link PaginationException} once the items fetched
 * so far have been handed out.
 */
final class Walk<P, T> {
  private final PageStyle<P, T> style;
  private final Function<PageRequest, P> fetcher;
  private final int maxPages;

  // The digest of each request fetched, and the number of its page.
  private final Map<Long, Integer> seen = new HashMap<>();

  private PageRequest pending = PageRequest.first(); // null once the last page was fetched
  private PaginationException stuck; // why the walk cannot go on, once it cannot
  private int fetched;
  private List<T> items = List.of();
  private int index;

  Walk(PageStyle<P, T> style, Function<PageRequest, P> fetcher, int maxPages) {
    this.style = style;
    this.fetcher = fetcher;
    this.maxPages = maxPages;
  }

  private boolean more() {
    return pending != null || stuck != null;
  }

  // Fetches the pending page; on failure nothing changes.
  private P fetch() {
    if (stuck != null) {
      throw stuck;
    }
    int number = fetched + 1;
    PageRequest request = pending;
    P page = fetcher.apply(request);
    if (page == null) {
      throw new PaginationException(
          PaginationException.Check.NO_PAGE, number, "the fetch function returned no page", null);
    }
    List<T> pageItems;
    try {
      pageItems = style.items(page);
    } catch (RuntimeException e) {
      throw malformed(number, e);
    }
    if (pageItems == null) {
      pageItems = List.of(); // a style of one's own may answer null for "no items"
    }
    fetched = number;
    seen.put(request.digest(), number);
    items = pageItems;
    index = 0;
    pending = null;
    try {
      pending = checked(style.next(page).orElse(null), number);
    } catch (PaginationException e) {
      stuck = e;
    } catch (RuntimeException e) {
      stuck = malformed(number, e);
    }
    return page;
  }

  // Returns next if the walk may fetch it as page number + 1.
  private PageRequest checked(PageRequest next, int number) {
    if (next == null) {
      return null;
    }
    Integer earlier = seen.get(next.digest());
    if (earlier != null) {
      throw new PaginationException(
          PaginationException.Check.CYCLE,
          number + 1,
          "page " + number + " leads back to the request of page " + earlier + "; not looping",
          null);
    }
    if (number >= maxPages) {
      throw new PaginationException(
          PaginationException.Check.TOO_MANY_PAGES,
          number + 1,
          "the list has more than the limit of " + maxPages + " pages; not fetched",
          null);
    }
    return next;
  }

  // A page the style could not read or continue from; a style's own text is not kept.
  private static PaginationException malformed(int number, RuntimeException e) {
    if (e instanceof Styles.Unusable unusable) {
      return new PaginationException(
          PaginationException.Check.MALFORMED_PAGE, number, unusable.getMessage(), null);
    }
    return new PaginationException(
        PaginationException.Check.MALFORMED_PAGE,
        number,
        "the page style failed on it (" + e.getClass().getSimpleName() + ")",
        e);
  }

  Iterator<T> items() {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        while (index >= items.size()) {
          if (!more()) {
            return false;
          }
          fetch();
        }
        return true;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return items.get(index++);
      }
    };
  }

  Iterator<P> pages() {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return more();
      }

      @Override
      public P next() {
        if (!more()) {
          throw new NoSuchElementException();
        }
        return fetch();
      }
    };
  }
}
