package dev.saferetry.codec;

import java.util.Objects;

/**
 * How {@link BodyCodec#form(FormStyle)} flattens nested values into {@code
 * application/x-www-form-urlencoded} pairs. The defaults are the conventions of Stripe's API
 * reference: {@code metadata[order_id]=6735}, {@code expand[]=customer}, {@code
 * items[0][price]=p_1}.
 *
 * <pre>{@code
 * BodyCodec indexed = BodyCodec.form(FormStyle.builder().lists(FormStyle.Lists.INDEXED).build());
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class FormStyle {
  private static final FormStyle DEFAULTS = builder().build();

  /** How list elements are named. */
  public enum Lists {
    /**
     * {@code a[]=x&a[]=y} for lists of plain values; a list holding an object or a list is indexed
     * anyway, because {@code a[][b]=} cannot say where one element ends.
     */
    BRACKETS,
    /** {@code a[0]=x&a[1]=y} for every list, as Stripe's Java and Node libraries send them. */
    INDEXED
  }

  /** What a {@code null} field becomes. */
  public enum Nulls {
    /** The field is left out. */
    OMIT,
    /** The field is sent with an empty value, {@code a=}: Stripe's way to unset a field. */
    EMPTY
  }

  private final Lists lists;
  private final Nulls nulls;

  private FormStyle(Builder b) {
    this.lists = b.lists;
    this.nulls = b.nulls;
  }

  /**
   * Returns Stripe's documented conventions: {@link Lists#BRACKETS}, {@link Nulls#OMIT}.
   *
   * @return Stripe's documented conventions: {@link Lists#BRACKETS}, {@link Nulls#OMIT}
   */
  public static FormStyle defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a new builder with the defaults.
   *
   * @return a new builder with the defaults
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns how lists are written.
   *
   * @return how lists are written
   */
  public Lists lists() {
    return lists;
  }

  /**
   * Returns what nulls become.
   *
   * @return what nulls become
   */
  public Nulls nulls() {
    return nulls;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FormStyle s && s.lists == lists && s.nulls == nulls;
  }

  @Override
  public int hashCode() {
    return 31 * lists.hashCode() + nulls.hashCode();
  }

  @Override
  public String toString() {
    return "FormStyle[lists=" + lists + ", nulls=" + nulls + "]";
  }

  /** Builds a {@link FormStyle}. Not thread-safe. */
  public static final class Builder {
    private Lists lists = Lists.BRACKETS;
    private Nulls nulls = Nulls.OMIT;

    private Builder() {}

    /**
     * How list elements are named. Default: {@link Lists#BRACKETS}.
     *
     * @param style the style
     * @return this builder
     */
    public Builder lists(Lists style) {
      this.lists = Objects.requireNonNull(style, "lists");
      return this;
    }

    /**
     * What a null field becomes. Default: {@link Nulls#OMIT}.
     *
     * @param style the style
     * @return this builder
     */
    public Builder nulls(Nulls style) {
      this.nulls = Objects.requireNonNull(style, "nulls");
      return this;
    }

    /**
     * Returns the style.
     *
     * @return the style
     */
    public FormStyle build() {
      return new FormStyle(this);
    }
  }
}
