/**
 * Lazy iteration over paged lists: a {@link dev.saferetry.pagination.PageStyle} says how an API
 * pages (Stripe's {@code has_more}/{@code starting_after}, an opaque next cursor as Square and
 * GoCardless send it, a next link as PayPal sends it), a function of a {@link
 * dev.saferetry.pagination.PageRequest} fetches one page, and {@link
 * dev.saferetry.pagination.PagedIterable#of} walks every item, keeping its place when a fetch
 * fails. A walk stops with a {@link dev.saferetry.pagination.PaginationException} rather than loop
 * on a cursor cycle or run past {@link dev.saferetry.pagination.PagedIterable#maxPages(int) its
 * page limit}.
 */
package dev.saferetry.pagination;
