package dev.saferetry.codec;

import dev.saferetry.internal.codec.Percent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The query parameters of a request: an ordered list of name/value pairs where a name may repeat.
 *
 * <pre>{@code
 * QueryParams q = QueryParams.of("limit", 3)
 *     .and("expand[]", "data.customer")
 *     .and("created[gte]", 1_700_000_000L);
 * q.encode(); // limit=3&expand[]=data.customer&created[gte]=1700000000
 * }</pre>
 *
 * <p>{@link #encode()} writes names and values as form components, a space as {@code %20} (which
 * every server reads as a space, unlike {@code +}) and brackets in names literal, as Stripe's
 * libraries and API reference write them; brackets in values are escaped. Text with an unpaired
 * surrogate is refused when added.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class QueryParams {
  private static final QueryParams EMPTY = new QueryParams(List.of());

  // One parameter: its name as the server sees it (not empty), and its value.
  private record Param(String name, String value) {
    Param {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("query parameter name must not be empty");
      }
      Percent.requireWellFormed(name, "a query parameter name");
      Percent.requireWellFormed(value, "the value of query parameter " + name);
    }
  }

  private final List<Param> params;

  private QueryParams(List<Param> params) {
    this.params = params;
  }

  /** {@return no parameters} */
  public static QueryParams empty() {
    return EMPTY;
  }

  /**
   * {@return one parameter}
   *
   * @param name the name as the server sees it, e.g. {@code expand[]}; not empty
   * @param value the value, possibly empty
   */
  public static QueryParams of(String name, String value) {
    return new QueryParams(List.of(new Param(name, value)));
  }

  /**
   * {@return one parameter holding a whole number in decimal, e.g. {@code limit=3}}
   *
   * @param name the name as the server sees it; not empty
   * @param value the value
   */
  public static QueryParams of(String name, long value) {
    return of(name, Long.toString(value));
  }

  /**
   * {@return a copy with a parameter appended; an earlier one of the same name is kept}
   *
   * @param name the name as the server sees it, e.g. {@code expand[]}; not empty
   * @param value the value, possibly empty
   */
  public QueryParams and(String name, String value) {
    List<Param> more = new ArrayList<>(params.size() + 1);
    more.addAll(params);
    more.add(new Param(name, value));
    return new QueryParams(List.copyOf(more));
  }

  /**
   * {@return a copy with a whole number appended in decimal, e.g. {@code limit=3}}
   *
   * @param name the name as the server sees it; not empty
   * @param value the value
   */
  public QueryParams and(String name, long value) {
    return and(name, Long.toString(value));
  }

  /**
   * {@return a copy with {@code true} or {@code false} appended}
   *
   * @param name the name as the server sees it; not empty
   * @param value the value
   */
  public QueryParams and(String name, boolean value) {
    return and(name, value ? "true" : "false");
  }

  /**
   * {@return a copy with one parameter appended per value, e.g. {@code expand[]=a&expand[]=b}: in
   * the iteration order of {@code values}, except that the values of a {@link Set} are added sorted
   * ({@link String#compareTo}), because a set's iteration order can differ from one process to the
   * next and the query is part of an intent's identity}
   *
   * @param name the name as the server sees it; not empty
   * @param values the values
   */
  public QueryParams andAll(String name, Iterable<String> values) {
    Objects.requireNonNull(values, "values");
    List<String> ordered = new ArrayList<>();
    values.forEach(v -> ordered.add(Objects.requireNonNull(v, "values")));
    if (values instanceof Set<String>) {
      Collections.sort(ordered);
    }
    if (ordered.isEmpty()) {
      return this;
    }
    List<Param> more = new ArrayList<>(params.size() + ordered.size());
    more.addAll(params);
    ordered.forEach(v -> more.add(new Param(name, v)));
    return new QueryParams(List.copyOf(more));
  }

  /** {@return whether there are none} */
  public boolean isEmpty() {
    return params.isEmpty();
  }

  /** {@return the distinct names in order of first appearance} */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    params.forEach(p -> names.add(p.name()));
    return Collections.unmodifiableSet(names);
  }

  /**
   * {@return every value of {@code name}, in order; empty if absent}
   *
   * @param name the name
   */
  public List<String> values(String name) {
    List<String> values = new ArrayList<>();
    for (Param p : params) {
      if (p.name().equals(name)) {
        values.add(p.value());
      }
    }
    return List.copyOf(values);
  }

  /**
   * {@return the first value of {@code name}, or null}
   *
   * @param name the name
   */
  public String first(String name) {
    for (Param p : params) {
      if (p.name().equals(name)) {
        return p.value();
      }
    }
    return null;
  }

  /**
   * {@return a copy where {@code name} has exactly the values of {@code others}: every parameter of
   * {@code others} replaces all earlier values of its name, in place of the first one} This is how
   * a page cursor is set on a list request.
   *
   * @param others the parameters to append
   */
  public QueryParams with(QueryParams others) {
    if (others.isEmpty()) {
      return this;
    }
    Set<String> replaced = others.names();
    List<Param> merged = new ArrayList<>(params.size() + others.params.size());
    boolean inserted = false;
    for (Param p : params) {
      if (!replaced.contains(p.name())) {
        merged.add(p);
      } else if (!inserted) {
        merged.addAll(others.params);
        inserted = true;
      }
    }
    if (!inserted) {
      merged.addAll(others.params);
    }
    return new QueryParams(List.copyOf(merged));
  }

  /** {@return the encoded query without the leading {@code ?}; empty when there are none} */
  public String encode() {
    StringBuilder out = new StringBuilder(params.size() * 16);
    for (Param p : params) {
      if (out.length() > 0) {
        out.append('&');
      }
      Percent.component(out, p.name(), Percent.Space.PERCENT, true, "a query parameter name");
      out.append('=');
      Percent.component(out, p.value(), Percent.Space.PERCENT, false, "a query value");
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryParams q && q.params.equals(params);
  }

  @Override
  public int hashCode() {
    return params.hashCode();
  }

  /** Returns the names only: values may be personal data. */
  @Override
  public String toString() {
    return "QueryParams" + names();
  }
}
