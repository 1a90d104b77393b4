package dev.saferetry.pagination;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One walk through a paged list. The state moves only after a fetch succeeded, which is what lets
 * an iterator continue after a failed fetch without skipping or repeating items.
 */
final class Walk<P, T> {
  private final PageStyle<P, T> style;
  private final PageFetcher<P> fetcher;
  private PageRequest pending = PageRequest.first(); // null once the last page was fetched
  private List<T> items = List.of();
  private int index;

  Walk(PageStyle<P, T> style, PageFetcher<P> fetcher) {
    this.style = style;
    this.fetcher = fetcher;
  }

  /** Fetches the pending page; on failure nothing changes. */
  private P fetch() {
    PageRequest request = pending;
    P page = fetcher.fetch(request);
    if (page == null) {
      throw new IllegalStateException("the page fetch returned no page");
    }
    List<T> pageItems = style.items(page);
    PageRequest next = style.next(page).orElse(null);
    if (next != null && next.equals(request)) {
      throw new IllegalStateException(
          "the server answered "
              + request
              + " with a link to the same page; stopping, not looping");
    }
    items = pageItems;
    index = 0;
    pending = next;
    return page;
  }

  Iterator<T> items() {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        while (index >= items.size()) {
          if (pending == null) {
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
        return pending != null;
      }

      @Override
      public P next() {
        if (pending == null) {
          throw new NoSuchElementException();
        }
        return fetch();
      }
    };
  }
}
