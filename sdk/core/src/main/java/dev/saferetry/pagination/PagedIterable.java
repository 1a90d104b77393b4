package dev.saferetry.pagination;

import java.util.Iterator;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every item of a paged list, fetched lazily: no page is fetched until an iterator needs it, and
 * each page is fetched once per iteration. Each {@link #iterator()} walks the list again from the
 * first page.
 *
 * <pre>{@code
 * for (Charge charge : PagedIterable.of(style, request -> fetchChargesPage(request))) {
 *   ...
 * }
 * }</pre>
 *
 * <p>When a fetch fails, {@link Iterator#hasNext()} or {@link Iterator#next()} throws the fetch's
 * exception and the iterator keeps its place: calling it again fetches the same page, so no item is
 * skipped or repeated.
 *
 * <p>The server decides where a walk goes next, so a walk never follows it blindly: a next page
 * whose request repeats an earlier one of the same walk (a cursor cycle such as A, B, A, or a page
 * pointing at itself), more pages than {@link #maxPages(int) the limit} (default {@value
 * #DEFAULT_MAX_PAGES}), or a page that cannot be continued from (it says more follow but has no
 * items, its last item has no id) end the walk with a {@link PaginationException} naming the page,
 * after every item fetched before it was handed out.
 *
 * <p>Thread-safe when the fetch function is; its iterators are not.
 *
 * @param <P> the page type
 * @param <T> the item type
 */
public final class PagedIterable<P, T> implements Iterable<T> {
  /** The most pages one walk fetches unless {@link #maxPages(int)} says otherwise. */
  public static final int DEFAULT_MAX_PAGES = 10_000;

  /**
   * The highest limit {@link #maxPages(int)} accepts: a walk remembers a 64-bit digest of every
   * request it made, to recognise a cycle, and this bounds that memory (under 100 MB at this limit,
   * under 1 MB at the default).
   */
  public static final int MAX_PAGES_LIMIT = 1_000_000;

  private final PageStyle<P, T> style;
  private final Function<PageRequest, P> fetcher;
  private final int maxPages;

  private PagedIterable(PageStyle<P, T> style, Function<PageRequest, P> fetcher, int maxPages) {
    this.style = Objects.requireNonNull(style, "style");
    this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
    this.maxPages = maxPages;
  }

  /**
   * {@return the items of every page {@code fetch} returns, in the order of {@code style}, at most
   * {@value #DEFAULT_MAX_PAGES} pages per walk}
   *
   * <p>{@code fetch} returns the page a {@link PageRequest} names, never null. A client's fetch
   * sends the list request (with {@link PageRequest#applyTo(dev.saferetry.codec.QueryParams) the
   * cursor applied}, or to the {@link PageRequest#link() link}) through its normal retry logic and
   * decodes the page. A failure is thrown as an unchecked exception and surfaces from the iterator;
   * the iterator keeps its place, so iterating on fetches the same page again. The function must be
   * thread-safe if one iterable is iterated by several threads.
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param style how the pages link up
   * @param fetch fetches the page a request names
   */
  public static <P, T> PagedIterable<P, T> of(
      PageStyle<P, T> style, Function<PageRequest, P> fetch) {
    return new PagedIterable<>(style, fetch, DEFAULT_MAX_PAGES);
  }

  /**
   * {@return a copy whose walks fetch at most {@code maxPages} pages: when the last allowed page
   * still names a next one, the walk ends with a {@link PaginationException} (its message says
   * {@code TOO_MANY_PAGES}) instead of fetching it} Default {@value #DEFAULT_MAX_PAGES}.
   *
   * @param maxPages the most pages one walk fetches: 1 to {@value #MAX_PAGES_LIMIT}
   * @throws IllegalArgumentException if {@code maxPages} is out of range
   */
  public PagedIterable<P, T> maxPages(int maxPages) {
    if (maxPages < 1 || maxPages > MAX_PAGES_LIMIT) {
      throw new IllegalArgumentException(
          "maxPages must be 1.." + MAX_PAGES_LIMIT + ", was " + maxPages);
    }
    return new PagedIterable<>(style, fetcher, maxPages);
  }

  /** {@return the most pages one walk fetches} */
  public int maxPages() {
    return maxPages;
  }

  /** Returns an iterator over every item, starting at the first page. */
  @Override
  public Iterator<T> iterator() {
    return new Walk<>(style, fetcher, maxPages).items();
  }

  /** {@return the pages themselves, lazily: a page is fetched by {@code next()}} */
  public Iterable<P> pages() {
    return () -> new Walk<>(style, fetcher, maxPages).pages();
  }

  /** {@return the items as a sequential stream; pages are fetched as the stream is consumed} */
  public Stream<T> stream() {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false);
  }
}
