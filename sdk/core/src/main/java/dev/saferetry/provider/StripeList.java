package dev.saferetry.provider;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.saferetry.pagination.PageStyle;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One page of a Stripe list: {@code
 * {"object":"list","url":"/v1/charges","has_more":true,"data":[...]}}. Decode it with {@code new
 * TypeRef<StripeList<Charge>>() {}} and walk every page with {@link #style(Function)}.
 *
 * <p>Instances are immutable and thread-safe when their items are.
 *
 * @param object always {@code "list"}
 * @param url the list's path, e.g. {@code /v1/charges}
 * @param hasMore whether more items follow this page
 * @param data the items of this page, newest first; never null
 * @param <T> the item type
 */
public record StripeList<T>(
    String object, String url, @JsonProperty("has_more") boolean hasMore, List<T> data) {

  /**
   * Copies the items; a missing {@code data} is an empty page.
   *
   * @param object always {@code "list"}
   * @param url the list's path, e.g. {@code /v1/charges}
   * @param hasMore whether more items follow this page
   * @param data the items of this page, newest first; never null
   */
  public StripeList {
    data = data == null ? List.of() : List.copyOf(data);
  }

  /**
   * {@return Stripe's page style: while {@code has_more}, the next page starts after the last
   * item's id ({@code starting_after})}
   *
   * @param <T> the item type
   * @param id the id of an item, e.g. {@code Charge::id}
   */
  public static <T> PageStyle<StripeList<T>, T> style(Function<? super T, String> id) {
    Objects.requireNonNull(id, "id");
    return PageStyle.afterLastItem(StripeList::data, StripeList::hasMore, id, "starting_after");
  }
}
