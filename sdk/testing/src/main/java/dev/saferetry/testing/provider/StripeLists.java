package dev.saferetry.testing.provider;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Stripe's lists ({@code limit}, {@code starting_after}, {@code ending_before}; newest first;
 * {@code has_more}) and searches ({@code query}, {@code limit}, {@code page}; {@code next_page}). A
 * search sees every object at once (Stripe's may lag behind a write by up to a minute).
 */
final class StripeLists {
  private static final Set<String> PAGING =
      Set.of("limit", "starting_after", "ending_before", "expand");
  private static final Set<String> SEARCH = Set.of("query", "limit", "page", "expand");

  private StripeLists() {}

  /**
   * One page of {@code objects} that pass {@code filter}.
   *
   * @param filters the filter parameters the endpoint takes besides paging and expand
   */
  static Answer list(
      StripeLedger ledger,
      StripeLedger.Objects objects,
      Map<String, Object> params,
      Set<String> filters,
      Predicate<Map<String, Object>> filter)
      throws Refused {
    Set<String> known = new HashSet<>(PAGING);
    known.addAll(filters);
    StripeParams.onlyKnown(params, known);
    int limit = limit(params);
    String after = StripeParams.string(params, "starting_after", false);
    String before = StripeParams.string(params, "ending_before", false);
    if (after != null && before != null) {
      throw StripeParams.bad(
          "Use starting_after or ending_before, not both.", "starting_after", null);
    }
    List<String> expand =
        StripeParams.expand(params, StripeLedger.expandPaths(objects.type, "data."));
    List<Map<String, Object>> all = objects.newestFirst.stream().filter(filter).toList();
    int from = 0;
    int to = all.size();
    String cursor = after != null ? after : before;
    if (cursor != null) {
      int at = all.indexOf(objects.get(cursor));
      if (at < 0) {
        throw StripeParams.bad(
            "No such " + objects.type + ": '" + cursor + "'",
            after != null ? "starting_after" : "ending_before",
            "resource_missing");
      }
      from = after != null ? at + 1 : Math.max(0, at - limit);
      to = after != null ? all.size() : at;
    }
    int end = Math.min(to, from + limit);
    Map<String, Object> page = new LinkedHashMap<>();
    page.put("object", "list");
    page.put("data", data(ledger, all.subList(from, end), expand));
    page.put("has_more", before != null ? from > 0 : end < to);
    page.put("url", objects.url);
    return Answer.read(page);
  }

  /** One page of a search over {@code objects} by the fields in {@code fields}. */
  static Answer search(
      StripeLedger ledger,
      StripeLedger.Objects objects,
      Map<String, Object> params,
      Set<String> fields)
      throws Refused {
    StripeParams.onlyKnown(params, SEARCH);
    String query = StripeParams.string(params, "query", true);
    int limit = limit(params);
    String page = StripeParams.string(params, "page", false);
    List<String> expand =
        StripeParams.expand(params, StripeLedger.expandPaths(objects.type, "data."));
    Predicate<Map<String, Object>> match;
    try {
      match = StripeQuery.parse(query, fields);
    } catch (IllegalArgumentException e) {
      throw StripeParams.bad("Invalid search query: " + e.getMessage(), "query", null);
    }
    List<Map<String, Object>> all = objects.newestFirst.stream().filter(match).toList();
    int from = page == null ? 0 : offset(page);
    int end = Math.min(all.size(), from + limit);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("object", "search_result");
    result.put("data", data(ledger, all.subList(Math.min(from, end), end), expand));
    result.put("has_more", end < all.size());
    result.put("next_page", end < all.size() ? token(end) : null);
    result.put("url", objects.url + "/search");
    return Answer.read(result);
  }

  private static List<Object> data(
      StripeLedger ledger, List<Map<String, Object>> objects, List<String> expand) {
    List<Object> data = new ArrayList<>();
    for (Map<String, Object> o : objects) {
      data.add(ledger.expanded(o, expand, "data."));
    }
    return data;
  }

  private static int limit(Map<String, Object> params) throws Refused {
    Long limit = StripeParams.positive(params, "limit", false);
    if (limit != null && limit > 100) {
      throw StripeParams.bad("limit must be at most 100", "limit", null);
    }
    return limit == null ? 10 : limit.intValue();
  }

  private static String token(int offset) {
    return "page_"
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(("offset:" + offset).getBytes(StandardCharsets.UTF_8));
  }

  private static int offset(String token) throws Refused {
    try {
      String text =
          new String(
              Base64.getUrlDecoder().decode(token.substring("page_".length())),
              StandardCharsets.UTF_8);
      if (token.startsWith("page_") && text.matches("offset:[0-9]{1,9}")) {
        return Integer.parseInt(text.substring("offset:".length()));
      }
    } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
      // falls through to the refusal
    }
    throw StripeParams.bad("Invalid page: " + token, "page", null);
  }
}
