package dev.saferetry.pagination;

import java.util.Objects;

/**
 * A walk through a paged list stopped because the server's pages cannot be followed safely: a
 * cursor cycle, more pages than the limit, a page that cannot be continued from. {@link #failure()}
 * says which check stopped it and {@link #page()} which page (counted from 1 in this walk) it
 * concerns. The message is safe to log: it never holds a cursor, a link or other server text.
 *
 * <p>Every item of the pages before it has been handed out; iterating on throws the same exception
 * again, and a new iterator starts over at the first page.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PaginationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** The check that stopped the walk. */
  private final PaginationFailure failure;

  /** The page the failure concerns, from 1. */
  private final int page;

  PaginationException(PaginationFailure failure, int page, String detail, Throwable cause) {
    super("pagination stopped at page " + page + ": " + failure + ": " + detail, cause);
    this.failure = Objects.requireNonNull(failure, "failure");
    this.page = page;
  }

  /**
   * Returns the check that stopped the walk.
   *
   * @return the check that stopped the walk
   */
  public PaginationFailure failure() {
    return failure;
  }

  /**
   * Returns the number of the page the failure concerns, counted from 1 in this walk: the page that
   * would have been fetched next for {@link PaginationFailure#CYCLE} and {@link
   * PaginationFailure#TOO_MANY_PAGES}, the page fetched otherwise.
   *
   * @return the page number, from 1
   */
  public int page() {
    return page;
  }
}
