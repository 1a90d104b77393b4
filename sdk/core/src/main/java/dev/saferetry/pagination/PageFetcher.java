package dev.saferetry.pagination;

/**
 * Fetches one page. A client's fetch sends the list request (with {@link
 * PageRequest#applyTo(dev.saferetry.codec.QueryParams) the cursor applied}, or to the {@link
 * PageRequest#link() link}) through its normal retry logic and decodes the page.
 *
 * <p>A failure is thrown as an unchecked exception and surfaces from the iterator; the iterator
 * keeps its place, so iterating on fetches the same page again.
 *
 * <p>Implementations must be thread-safe if one iterable is iterated by several threads.
 *
 * @param <P> the page type
 */
@FunctionalInterface
public interface PageFetcher<P> {

  /**
   * Returns the page {@code request} names; never null.
   *
   * @param request the request
   * @return the page {@code request} names; never null
   */
  P fetch(PageRequest request);
}
