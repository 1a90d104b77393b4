package dev.saferetry.model;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.Objects;
import java.util.Optional;

/**
 * A related object that a response holds either as its id or, when the request asked to expand it,
 * as the whole object: Stripe's {@code "customer": "cus_123"} or {@code "customer": {"id":
 * "cus_123", ...}} after {@code expand[]=customer}. The id is there either way.
 *
 * <pre>{@code
 * String customerId = charge.customer().id();
 * Optional<Customer> customer = charge.customer().object(); // present when expanded
 * }</pre>
 *
 * <p>Read from a JSON string (the id) or object (whose {@code id} field is the id); written back
 * the same way.
 *
 * <p>Instances are immutable and thread-safe when the object is.
 *
 * @param <T> the object's type
 */
@JsonDeserialize(using = ExpandableDeserializer.class)
public final class Expandable<T> {
  private final String id;
  private final T object;

  private Expandable(String id, T object) {
    this.id = id;
    this.object = object;
  }

  /**
   * {@return an unexpanded reference}
   *
   * @param <T> the object's type
   * @param id the id
   */
  public static <T> Expandable<T> ofId(String id) {
    return new Expandable<>(Objects.requireNonNull(id, "id"), null);
  }

  /**
   * {@return an expanded reference}
   *
   * @param <T> the object's type
   * @param id the object's id, or null if it has none
   * @param object the object
   */
  public static <T> Expandable<T> ofObject(String id, T object) {
    return new Expandable<>(id, Objects.requireNonNull(object, "object"));
  }

  /** {@return the id; null only for an expanded object without one} */
  public String id() {
    return id;
  }

  /** {@return the object when expanded} */
  public Optional<T> object() {
    return Optional.ofNullable(object);
  }

  /** {@return whether the object is here, not only its id} */
  public boolean isExpanded() {
    return object != null;
  }

  @JsonValue
  Object json() {
    return object != null ? object : id;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Expandable<?> e
        && Objects.equals(e.id, id)
        && Objects.equals(e.object, object);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, object);
  }

  @Override
  public String toString() {
    return object != null ? String.valueOf(object) : id;
  }
}
