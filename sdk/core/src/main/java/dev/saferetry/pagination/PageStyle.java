package dev.saferetry.pagination;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How an API pages a list: where a page keeps its items and how to ask for the next one.
 *
 * <pre>{@code
 * // Stripe: has_more, then starting_after = the last item's id
 * PageStyle<StripeList<Charge>, Charge> stripe =
 *     PageStyle.afterLastItem(StripeList::data, StripeList::hasMore, Charge::id, "starting_after");
 * // Square: the page's cursor goes back as ?cursor=
 * PageStyle<PaymentsPage, Payment> square =
 *     PageStyle.nextCursor(PaymentsPage::payments, PaymentsPage::cursor, "cursor");
 * // PayPal: follow links[rel=next].href
 * PageStyle<InvoicePage, Invoice> paypal = PageStyle.nextLink(InvoicePage::items, InvoicePage::next);
 * }</pre>
 *
 * <p>Implementations must be stateless and thread-safe; the factories' are.
 *
 * @param <P> the page type, as the response decodes
 * @param <T> the item type
 */
public interface PageStyle<P, T> {

  /**
   * {@return the items of {@code page}, in order; empty if it has none}
   *
   * @param page the page
   */
  List<T> items(P page);

  /**
   * {@return the request of the page after {@code page}, or empty when it is the last one}
   *
   * @param page the page
   */
  Optional<PageRequest> next(P page);

  /**
   * {@return Stripe's style: a page says whether more follow, and the next page starts after the
   * last item's id}
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param items the items
   * @param hasMore whether a page says that more follow
   * @param id the id
   * @param parameter the cursor parameter, {@code starting_after} for Stripe
   * @throws PaginationException from a walk (a malformed page, naming the page) if a page says more
   *     follow but has no items, or its last item is null or has no id
   */
  static <P, T> PageStyle<P, T> afterLastItem(
      Function<? super P, ? extends List<T>> items,
      Predicate<? super P> hasMore,
      Function<? super T, String> id,
      String parameter) {
    Objects.requireNonNull(hasMore, "hasMore");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(parameter, "parameter");
    return new Styles.Simple<>(
        items,
        (page, list) -> {
          if (!hasMore.test(page)) {
            return Optional.empty();
          }
          if (list.isEmpty()) {
            throw new Styles.Unusable("it says more items follow but has none to continue after");
          }
          T last = list.get(list.size() - 1);
          String after = last == null ? null : id.apply(last);
          if (after == null || after.isEmpty()) {
            throw new Styles.Unusable("it says more items follow but its last item has no id");
          }
          return Optional.of(PageRequest.cursor(parameter, after));
        });
  }

  /**
   * {@return the style of APIs whose page carries an opaque cursor for the next one: Square's
   * {@code cursor} (sent back as {@code cursor}), GoCardless's {@code meta.cursors.after} (sent
   * back as {@code after})} A null or empty cursor marks the last page.
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param items the items
   * @param cursor the cursor
   * @param parameter the parameter
   */
  static <P, T> PageStyle<P, T> nextCursor(
      Function<? super P, ? extends List<T>> items,
      Function<? super P, String> cursor,
      String parameter) {
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(parameter, "parameter");
    return new Styles.Simple<>(
        items,
        (page, list) -> {
          String next = cursor.apply(page);
          return next == null || next.isEmpty()
              ? Optional.empty()
              : Optional.of(PageRequest.cursor(parameter, next));
        });
  }

  /**
   * {@return the style of APIs whose page links to the next one (PayPal's HATEOAS {@code links}
   * with {@code rel: "next"})} A null or empty link marks the last page.
   *
   * @param <P> the page type
   * @param <T> the item type
   * @param items the items
   * @param nextHref the next href
   */
  static <P, T> PageStyle<P, T> nextLink(
      Function<? super P, ? extends List<T>> items, Function<? super P, String> nextHref) {
    Objects.requireNonNull(nextHref, "nextHref");
    return new Styles.Simple<>(
        items,
        (page, list) -> {
          String href = nextHref.apply(page);
          return href == null || href.isEmpty()
              ? Optional.empty()
              : Optional.of(PageRequest.link(href));
        });
  }
}
