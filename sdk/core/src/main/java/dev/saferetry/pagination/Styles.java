package dev.saferetry.pagination;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/** The implementation behind {@link PageStyle}'s factories. */
final class Styles {
  private Styles() {}

  /**
   * A page that cannot be continued from, in words safe to log (never the server's text); the walk
   * turns it into a {@link PaginationException} naming the page.
   */
  static final class Unusable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unusable(String detail) {
      super(detail, null, false, false);
    }
  }

  /** Items by a function; the next request from the page and its items. */
  static final class Simple<P, T> implements PageStyle<P, T> {
    private final Function<? super P, ? extends List<T>> items;
    private final BiFunction<P, List<T>, Optional<PageRequest>> next;

    Simple(
        Function<? super P, ? extends List<T>> items,
        BiFunction<P, List<T>, Optional<PageRequest>> next) {
      this.items = Objects.requireNonNull(items, "items");
      this.next = next;
    }

    @Override
    public List<T> items(P page) {
      List<T> list = items.apply(page);
      return list == null ? List.of() : list; // a page without the field has no items
    }

    @Override
    public Optional<PageRequest> next(P page) {
      return next.apply(page, items(page));
    }
  }
}
