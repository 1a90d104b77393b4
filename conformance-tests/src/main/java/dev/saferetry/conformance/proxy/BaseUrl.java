package dev.saferetry.conformance.proxy;

import okhttp3.HttpUrl;

/**
 * Where a request for a path lands on a server given by its base URL: the base's path, then the
 * request's; the base's query (for example {@code ?token=...}), then the request's. Plain string
 * concatenation would put the request's path after the base's query.
 *
 * <p>Stateless and thread-safe.
 */
public final class BaseUrl {
  private BaseUrl() {}

  /**
   * Resolves {@code pathAndQuery} (e.g. {@code /v1/charges?limit=3}) against {@code baseUrl}.
   *
   * @param baseUrl the server's base URL, possibly with a path and a query
   * @param pathAndQuery the request's path, possibly with a query; a missing leading slash is fine
   * @return the absolute URL: the base's path then the request's, the base's query then the
   *     request's
   * @throws IllegalArgumentException if {@code baseUrl} is not an http or https URL
   */
  public static String resolve(String baseUrl, String pathAndQuery) {
    HttpUrl base = HttpUrl.get(baseUrl);
    int q = pathAndQuery.indexOf('?');
    String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
    String query = q < 0 || q == pathAndQuery.length() - 1 ? null : pathAndQuery.substring(q + 1);
    String basePath = base.encodedPath();
    String joined =
        (basePath.endsWith("/") ? basePath : basePath + "/")
            + (path.startsWith("/") ? path.substring(1) : path);
    String baseQuery = base.encodedQuery();
    String both = baseQuery == null ? query : query == null ? baseQuery : baseQuery + "&" + query;
    return base.newBuilder().encodedPath(joined).encodedQuery(both).build().toString();
  }
}
