package dev.saferetry.pagination;

/**
 * Why a walk through a paged list stopped before the server said the list ended. Each value names a
 * check; none carries the server's text.
 *
 * <p>Thread-safe (an enum).
 */
public enum PaginationFailure {
  /**
   * The next page's request repeats the request of an earlier page of the same walk (the same
   * cursor parameters, in any order, or the same link): following it would loop forever.
   */
  CYCLE,
  /**
   * The walk fetched its limit of pages ({@link PagedIterable#maxPages(int)}) and the server still
   * names a next page.
   */
  TOO_MANY_PAGES,
  /**
   * A page cannot be continued from: it says more items follow but has none, its last item has no
   * id, its cursor or link is unusable, or the page style threw while reading it.
   */
  MALFORMED_PAGE,
  /** The fetch function returned no page. */
  NO_PAGE
}
