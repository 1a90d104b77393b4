package dev.saferetry.pagination;

import dev.saferetry.codec.QueryParams;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which page to fetch next: the first one, the list request with cursor parameters set (Stripe's
 * {@code starting_after}, Square's {@code cursor}, GoCardless's {@code after}), or a link the
 * server gave (PayPal's {@code rel: next}).
 *
 * <p>A fetch function applies a cursor with {@link #applyTo(QueryParams)}: the cursor's parameters
 * replace those of the same name in the list request's own query, which keeps everything else
 * (limit, filters, {@code expand[]}). A link replaces the whole URL; a client follows it only to
 * the origin it was built for.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PageRequest {
  private static final PageRequest FIRST = new PageRequest(QueryParams.empty(), null);

  private final QueryParams cursor;
  private final String link;

  private PageRequest(QueryParams cursor, String link) {
    this.cursor = cursor;
    this.link = link;
  }

  /** {@return the request of the first page: the list request as it is} */
  public static PageRequest first() {
    return FIRST;
  }

  /**
   * {@return the list request with one cursor parameter set, e.g. {@code cursor("starting_after",
   * "ch_3")}}
   *
   * @param name the name
   * @param value the value
   * @throws IllegalArgumentException if the name is empty or either holds an unpaired surrogate
   */
  public static PageRequest cursor(String name, String value) {
    return new PageRequest(QueryParams.of(name, value), null);
  }

  /**
   * {@return the list request with these cursor parameters set}
   *
   * @param parameters the parameters
   */
  public static PageRequest cursor(QueryParams parameters) {
    Objects.requireNonNull(parameters, "parameters");
    if (parameters.isEmpty()) {
      throw new IllegalArgumentException("a cursor needs at least one parameter");
    }
    return new PageRequest(parameters, null);
  }

  /**
   * {@return a request of the URL the server gave for the next page}
   *
   * @param href the href
   * @throws IllegalArgumentException if the link is blank
   */
  public static PageRequest link(String href) {
    Objects.requireNonNull(href, "href");
    if (href.isBlank()) {
      throw new IllegalArgumentException("a next-page link must not be blank");
    }
    return new PageRequest(QueryParams.empty(), href);
  }

  /** {@return whether this is the first page's request} */
  public boolean isFirst() {
    return this == FIRST;
  }

  /** {@return the cursor parameters; empty for the first page and for a link} */
  public QueryParams cursorParameters() {
    return cursor;
  }

  /** {@return the link to follow instead of the list request, if the server gave one} */
  public Optional<String> link() {
    return Optional.ofNullable(link);
  }

  /**
   * {@return {@code listQuery} with the cursor parameters set in it}
   *
   * @param listQuery the list query
   */
  public QueryParams applyTo(QueryParams listQuery) {
    return listQuery.with(cursor);
  }

  /**
   * A 64-bit digest of what this request asks for, by which a walk recognises a repeated request
   * without keeping every cursor or link: the link as given, or the cursor parameters in sorted
   * order (a server that reorders them still asks for the same page). Two requests that differ get
   * the same digest with a chance of about one in 2^64 per pair; the walk then only stops early.
   */
  long digest() {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e); // every Java SE runtime has it
    }
    if (isFirst()) {
      sha.update((byte) 'F');
    } else if (link != null) {
      sha.update((byte) 'L');
      update(sha, link);
    } else {
      sha.update((byte) 'C');
      List<String> names = new ArrayList<>(cursor.names());
      Collections.sort(names);
      for (String name : names) {
        List<String> values = new ArrayList<>(cursor.values(name));
        Collections.sort(values);
        for (String value : values) {
          update(sha, name);
          update(sha, value);
        }
      }
    }
    return ByteBuffer.wrap(sha.digest()).getLong();
  }

  // Adds a text as its length and its UTF-16 code units: no two sequences of texts feed the same
  // bytes, unpaired surrogates included.
  private static void update(MessageDigest sha, String text) {
    ByteBuffer bytes = ByteBuffer.allocate(4 + 2 * text.length());
    bytes.putInt(text.length());
    for (int i = 0; i < text.length(); i++) {
      bytes.putChar(text.charAt(i));
    }
    sha.update(bytes.array());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PageRequest r && r.cursor.equals(cursor) && Objects.equals(r.link, link);
  }

  @Override
  public int hashCode() {
    return 31 * cursor.hashCode() + Objects.hashCode(link);
  }

  @Override
  public String toString() {
    if (isFirst()) {
      return "PageRequest[first]";
    }
    return link != null ? "PageRequest[link]" : "PageRequest[cursor " + cursor.names() + "]";
  }
}
