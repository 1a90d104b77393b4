package dev.saferetry.pagination;

/**
 * Entry point of pagination: a lazy iterable over every item of a paged list.
 *
 * <pre>{@code
 * PagedIterable<StripeList<Charge>, Charge> all = Pages.iterate(StripeList.style(Charge::id), fetch);
 * long count = all.stream().count();
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class Pages {
  private Pages() {}

  /**
   * Returns the items of every page {@code fetcher} returns, in the order of {@code style}.
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param style the style
   * @param fetcher the fetcher
   * @return the items of every page {@code fetcher} returns, in the order of {@code style}
   */
  public static <P, T> PagedIterable<P, T> iterate(PageStyle<P, T> style, PageFetcher<P> fetcher) {
    return new PagedIterable<>(style, fetcher);
  }
}
