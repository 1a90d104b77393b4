package dev.saferetry.internal.codec;

import java.util.Objects;
import okhttp3.HttpUrl;

/**
 * Next-page links from a server's answer. A link is followed with the client's credentials, so a
 * hostile or broken answer must not be able to send them elsewhere: a link is accepted only when it
 * resolves to the base URL's scheme, host and port, under the base URL's path.
 */
public final class Links {
  private Links() {}

  /**
   * Returns {@code href} resolved against {@code base}.
   *
   * @throws IllegalArgumentException if it is not a URL or leaves the base URL's origin or path;
   *     the message never echoes the link (it may carry tokens)
   */
  public static HttpUrl resolveWithin(HttpUrl base, String href) {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(href, "href");
    HttpUrl url = base.resolve(href);
    if (url == null) {
      throw new IllegalArgumentException("the next-page link is not a URL");
    }
    if (!url.scheme().equals(base.scheme())
        || !url.host().equals(base.host())
        || url.port() != base.port()) {
      throw new IllegalArgumentException(
          "the next-page link points to another origin than "
              + base.scheme()
              + "://"
              + base.host());
    }
    String prefix =
        base.encodedPath().endsWith("/") ? base.encodedPath() : base.encodedPath() + "/";
    if (!(url.encodedPath() + "/").startsWith(prefix)
        || !url.pathSegments().stream().allMatch(Links::plainSegment)) {
      throw new IllegalArgumentException("the next-page link leaves the base URL's path");
    }
    return url;
  }

  // Whether a decoded path segment is a plain name: OkHttp has already resolved ., .. and their
  // percent-encoded forms, but a segment that still decodes to a slash, a backslash, a dot segment
  // with parameters (..;) or another percent escape would be read as a step out of the base path by
  // a server or gateway that decodes once more.
  private static boolean plainSegment(String segment) {
    return segment.indexOf('/') < 0
        && segment.indexOf('\\') < 0
        && segment.indexOf('%') < 0
        && !segment.equals("..")
        && !segment.startsWith("..;")
        && !segment.startsWith(".;");
  }
}
