package dev.saferetry.pagination;

import java.util.Objects;

/**
 * A walk through a paged list stopped because the server's pages cannot be followed safely. The
 * message names the page (counted from 1 in this walk, also {@link #page()}) and the check that
 * stopped the walk, as {@code pagination stopped at page <n>: <CHECK>: <detail>}:
 *
 * <ul>
 *   <li>{@code CYCLE} — the next page's request repeats the request of an earlier page of the same
 *       walk (the same cursor parameters, in any order, or the same link): following it would loop
 *       forever;
 *   <li>{@code TOO_MANY_PAGES} — the walk fetched its limit of pages ({@link
 *       PagedIterable#maxPages(int)}) and the server still names a next page;
 *   <li>{@code MALFORMED_PAGE} — a page cannot be continued from: it says more items follow but has
 *       none, its last item has no id, its cursor or link is unusable, or the page style threw
 *       while reading it;
 *   <li>{@code NO_PAGE} — the fetch function returned no page.
 * </ul>
 *
 * <p>The message is safe to log: it never holds a cursor, a link or other server text.
 *
 * <p>Every item of the pages before it has been handed out; iterating on throws the same exception
 * again, and a new iterator starts over at the first page.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PaginationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** The checks that stop a walk; their names appear in the message. */
  enum Check {
    CYCLE,
    TOO_MANY_PAGES,
    MALFORMED_PAGE,
    NO_PAGE
  }

  /** The page the failure concerns, from 1. */
  private final int page;

  PaginationException(Check check, int page, String detail, Throwable cause) {
    super(
        "pagination stopped at page "
            + page
            + ": "
            + Objects.requireNonNull(check, "check")
            + ": "
            + detail,
        cause);
    this.page = page;
  }

  /**
   * {@return the number of the page the failure concerns, counted from 1 in this walk: the page
   * that would have been fetched next for {@code CYCLE} and {@code TOO_MANY_PAGES}, the page
   * fetched otherwise}
   */
  public int page() {
    return page;
  }
}
