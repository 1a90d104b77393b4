package dev.saferetry.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.Optional;

/**
 * A request field that is absent (not sent), cleared (sent as JSON {@code null}, or as an empty
 * form value {@code a=}, Stripe's way to unset a field) or set to a value. A plain Java field has
 * only two states, so it cannot tell "leave it as it is" from "remove it".
 *
 * <pre>{@code
 * CustomerUpdateRequest.builder().description("VIP").build(); // sets it
 * CustomerUpdateRequest.builder().clearDescription().build(); // description=
 * CustomerUpdateRequest.builder().build();                     // leaves it
 * }</pre>
 *
 * <p>A record component of this type is annotated {@code @JsonInclude(value = CUSTOM, valueFilter =
 * FieldValue.OmitAbsent.class)}, so an absent value writes nothing.
 *
 * <p>Instances are immutable and thread-safe when their value is.
 *
 * @param <T> the value's type
 */
public final class FieldValue<T> {
  private static final FieldValue<?> ABSENT = new FieldValue<>(false, null);
  private static final FieldValue<?> CLEARED = new FieldValue<>(true, null);

  private final boolean sent;
  private final T value;

  private FieldValue(boolean sent, T value) {
    this.sent = sent;
    this.value = value;
  }

  /**
   * {@return the absent value: the field is not sent}
   *
   * @param <T> the value's type
   */
  @SuppressWarnings("unchecked")
  public static <T> FieldValue<T> absent() {
    return (FieldValue<T>) ABSENT;
  }

  /**
   * {@return the cleared value: sent as {@code null} in JSON, as {@code a=} in a form}
   *
   * @param <T> the value's type
   */
  @SuppressWarnings("unchecked")
  public static <T> FieldValue<T> cleared() {
    return (FieldValue<T>) CLEARED;
  }

  /**
   * {@return a value that is sent}
   *
   * @param <T> the value's type
   * @param value the value, not null (use {@link #cleared()} to send null)
   */
  public static <T> FieldValue<T> of(T value) {
    return new FieldValue<>(true, Objects.requireNonNull(value, "value; use cleared() for null"));
  }

  /**
   * {@return {@code of(value)}, or {@link #absent()} for null}
   *
   * @param <T> the value's type
   * @param value the value or null
   */
  public static <T> FieldValue<T> ofNullable(T value) {
    return value == null ? absent() : of(value);
  }

  /** {@return whether the field is left out} */
  public boolean isAbsent() {
    return !sent;
  }

  /** {@return whether the field is sent as null (cleared)} */
  public boolean isCleared() {
    return sent && value == null;
  }

  /** {@return the value, empty when absent or cleared} */
  public Optional<T> value() {
    return Optional.ofNullable(value);
  }

  /** {@return what is written: the value, or null when cleared (absent writes nothing)} */
  @JsonValue
  public T orNull() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldValue<?> f && f.sent == sent && Objects.equals(f.value, value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sent, value);
  }

  @Override
  public String toString() {
    return !sent ? "absent" : value == null ? "cleared" : String.valueOf(value);
  }

  /**
   * Jackson's value filter that leaves out an absent {@link FieldValue}: its {@code equals} answers
   * whether a value is to be left out, as {@code JsonInclude.Include.CUSTOM} asks. Not for other
   * use.
   *
   * <p>Instances are stateless and thread-safe.
   */
  public static final class OmitAbsent {
    /** Creates the filter; Jackson calls it. */
    public OmitAbsent() {}

    /** {@return whether {@code value} is to be left out: null or absent} */
    @Override
    @SuppressWarnings("EqualsHashCode")
    public boolean equals(Object value) {
      return value == null || value == ABSENT;
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }
}
