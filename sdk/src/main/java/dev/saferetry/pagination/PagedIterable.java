package dev.saferetry.pagination;

import java.util.Iterator;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every item of a paged list, fetched lazily: no page is fetched until an iterator needs it, and
 * each page is fetched once per iteration. Each {@link #iterator()} walks the list again from the
 * first page.
 *
 * <pre>{@code
 * for (Charge charge : Pages.iterate(style, request -> fetchChargesPage(request))) {
 *   ...
 * }
 * }</pre>
 *
 * <p>When a fetch fails, {@link Iterator#hasNext()} or {@link Iterator#next()} throws the fetch's
 * exception and the iterator keeps its place: calling it again fetches the same page, so no item is
 * skipped or repeated. A server that answers a page with the cursor it was asked for ends the
 * iteration with an {@link IllegalStateException} instead of looping.
 *
 * <p>Thread-safe when the fetch function is; its iterators are not.
 *
 * @param <P> the page type
 * @param <T> the item type
 */
public final class PagedIterable<P, T> implements Iterable<T> {
  private final PageStyle<P, T> style;
  private final PageFetcher<P> fetcher;

  PagedIterable(PageStyle<P, T> style, PageFetcher<P> fetcher) {
    this.style = Objects.requireNonNull(style, "style");
    this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
  }

  /** Returns an iterator over every item, starting at the first page. */
  @Override
  public Iterator<T> iterator() {
    return new Walk<>(style, fetcher).items();
  }

  /**
   * Returns the pages themselves, lazily: a page is fetched by {@code next()}.
   *
   * @return the pages themselves, lazily: a page is fetched by {@code next()}
   */
  public Iterable<P> pages() {
    return () -> new Walk<>(style, fetcher).pages();
  }

  /**
   * Returns the items as a sequential stream; pages are fetched as the stream is consumed.
   *
   * @return the items as a sequential stream; pages are fetched as the stream is consumed
   */
  public Stream<T> stream() {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false);
  }
}
