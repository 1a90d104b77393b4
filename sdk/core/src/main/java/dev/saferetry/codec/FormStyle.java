package dev.saferetry.codec;

/**
 * How {@link BodyCodec#form(FormStyle)} flattens nested values into {@code
 * application/x-www-form-urlencoded} pairs. The defaults are the conventions of Stripe's API
 * reference: {@code metadata[order_id]=6735}, {@code expand[]=customer}, {@code
 * items[0][price]=p_1}.
 *
 * <pre>{@code
 * BodyCodec indexed = BodyCodec.form(FormStyle.defaults().withIndexedLists());
 * }</pre>
 *
 * <p>Lists: with bracketed lists (the default), {@code a[]=x&a[]=y} for lists of plain values; a
 * list holding an object or a list is indexed anyway, because {@code a[][b]=} cannot say where one
 * element ends. With indexed lists, {@code a[0]=x&a[1]=y} for every list, as Stripe's Java and Node
 * libraries send them.
 *
 * <p>Nulls: a {@code null} field is left out (the default), or sent with an empty value, {@code
 * a=}: Stripe's way to unset a field.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class FormStyle {
  private static final FormStyle DEFAULTS = new FormStyle(false, false);

  private final boolean indexedLists;
  private final boolean emptyNulls;

  private FormStyle(boolean indexedLists, boolean emptyNulls) {
    this.indexedLists = indexedLists;
    this.emptyNulls = emptyNulls;
  }

  /** {@return Stripe's documented conventions: bracketed lists, nulls left out} */
  public static FormStyle defaults() {
    return DEFAULTS;
  }

  /** {@return this style with every list indexed: {@code a[0]=x&a[1]=y}} */
  public FormStyle withIndexedLists() {
    return new FormStyle(true, emptyNulls);
  }

  /**
   * {@return this style with lists of plain values bracketed: {@code a[]=x&a[]=y} (the default)}
   */
  public FormStyle withBracketedLists() {
    return new FormStyle(false, emptyNulls);
  }

  /** {@return this style with a {@code null} field sent with an empty value, {@code a=}} */
  public FormStyle withEmptyNulls() {
    return new FormStyle(indexedLists, true);
  }

  /** {@return this style with a {@code null} field left out (the default)} */
  public FormStyle withOmittedNulls() {
    return new FormStyle(indexedLists, false);
  }

  /**
   * {@return whether every list is indexed, {@code a[0]=x}, rather than bracketed, {@code a[]=x}}
   */
  public boolean indexedLists() {
    return indexedLists;
  }

  /** {@return whether a {@code null} field is sent as {@code a=} rather than left out} */
  public boolean emptyNulls() {
    return emptyNulls;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FormStyle s && s.indexedLists == indexedLists && s.emptyNulls == emptyNulls;
  }

  @Override
  public int hashCode() {
    return 31 * Boolean.hashCode(indexedLists) + Boolean.hashCode(emptyNulls);
  }

  @Override
  public String toString() {
    return "FormStyle[lists="
        + (indexedLists ? "INDEXED" : "BRACKETS")
        + ", nulls="
        + (emptyNulls ? "EMPTY" : "OMIT")
        + "]";
  }
}
