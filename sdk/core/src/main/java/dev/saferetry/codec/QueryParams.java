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
 * QueryParams q = QueryParams.builder()
 *     .add("limit", 3)
 *     .add("expand[]", "data.customer")
 *     .add("created[gte]", 1_700_000_000L)
 *     .build();
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

  /**
   * One parameter.
   *
   * <p>Instances are immutable and thread-safe.
   *
   * @param name the name as the server sees it, e.g. {@code expand[]}; not empty
   * @param value the value, possibly empty
   */
  public record Param(String name, String value) {
    /**
     * Validates the parameter.
     *
     * @param name the name as the server sees it, e.g. {@code expand[]}; not empty
     * @param value the value, possibly empty
     */
    public Param {
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

  /**
   * Returns no parameters.
   *
   * @return no parameters
   */
  public static QueryParams empty() {
    return EMPTY;
  }

  /**
   * Returns one parameter.
   *
   * @param name the name
   * @param value the value
   * @return one parameter
   */
  public static QueryParams of(String name, String value) {
    return new QueryParams(List.of(new Param(name, value)));
  }

  /**
   * Returns a new builder.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder holding a copy of these parameters; this value is left as it is.
   *
   * @return a builder holding these parameters
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.params.addAll(params);
    return b;
  }

  /**
   * Returns the parameters in order.
   *
   * @return the parameters in order
   */
  public List<Param> params() {
    return params;
  }

  /**
   * Returns whether there are none.
   *
   * @return whether there are none
   */
  public boolean isEmpty() {
    return params.isEmpty();
  }

  /**
   * Returns the distinct names in order of first appearance.
   *
   * @return the distinct names in order of first appearance
   */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    params.forEach(p -> names.add(p.name()));
    return Collections.unmodifiableSet(names);
  }

  /**
   * Returns every value of {@code name}, in order; empty if absent.
   *
   * @param name the name
   * @return every value of {@code name}, in order; empty if absent
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
   * Returns the first value of {@code name}, or null.
   *
   * @param name the name
   * @return the first value of {@code name}, or null
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
   * Returns a copy where {@code name} has exactly the values of {@code others}: every parameter of
   * {@code others} replaces all earlier values of its name, in place of the first one. This is how
   * a page cursor is set on a list request.
   *
   * @param others the parameters to append
   * @return a copy where {@code name} has exactly the values of {@code others}: every parameter of
   *     {@code others} replaces all earlier values of its name, in place of the first one
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

  /**
   * Returns the encoded query without the leading {@code ?}; empty when there are none.
   *
   * @return the encoded query without the leading {@code ?}; empty when there are none
   */
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

  /** Builds {@link QueryParams}; names may repeat. Not thread-safe. */
  public static final class Builder {
    private final List<Param> params = new ArrayList<>();

    private Builder() {}

    /**
     * Adds a parameter; an earlier one of the same name is kept.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     */
    public Builder add(String name, String value) {
      params.add(new Param(name, value));
      return this;
    }

    /**
     * Adds a whole number in decimal, e.g. {@code limit=3}.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     */
    public Builder add(String name, long value) {
      return add(name, Long.toString(value));
    }

    /**
     * Adds {@code true} or {@code false}.
     *
     * @param name the name
     * @param value the value
     * @return this builder
     */
    public Builder add(String name, boolean value) {
      return add(name, value ? "true" : "false");
    }

    /**
     * Adds one parameter per value, e.g. {@code expand[]=a&expand[]=b}: in the iteration order of
     * {@code values}, except that the values of a {@link Set} are added sorted ({@link
     * String#compareTo}), because a set's iteration order can differ from one process to the next
     * and the query is part of an intent's identity.
     *
     * @param name the name
     * @param values the values
     * @return this builder
     */
    public Builder addAll(String name, Iterable<String> values) {
      Objects.requireNonNull(values, "values");
      if (values instanceof Set<String> set) {
        List<String> sorted = new ArrayList<>(set);
        sorted.forEach(v -> Objects.requireNonNull(v, "values"));
        Collections.sort(sorted);
        sorted.forEach(v -> add(name, v));
      } else {
        values.forEach(v -> add(name, v));
      }
      return this;
    }

    /**
     * Returns the parameters.
     *
     * @return the parameters
     */
    public QueryParams build() {
      return params.isEmpty() ? EMPTY : new QueryParams(List.copyOf(params));
    }
  }
}
