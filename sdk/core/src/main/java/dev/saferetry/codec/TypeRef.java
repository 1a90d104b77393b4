package dev.saferetry.codec;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A response type, generic ones included: what a plain {@code Class} cannot say.
 *
 * <pre>{@code
 * TypeRef<StripeList<Charge>> page = new TypeRef<StripeList<Charge>>() {};
 * TypeRef<List<Charge>> charges = TypeRef.listOf(Charge.class);
 * TypeRef<Charge> one = TypeRef.of(Charge.class);
 * }</pre>
 *
 * <p>Create generic types with an anonymous subclass (the type argument is read back from the
 * subclass's declaration) or with the factories. The type must be fully known: a type variable such
 * as {@code T} inside a generic method is refused, because its value is lost at run time. Two refs
 * of the same type are equal.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param <T> the type
 */
public abstract class TypeRef<T> {
  private final Type type;

  /**
   * Captures the type argument of the anonymous subclass being created.
   *
   * @throws IllegalArgumentException if the subclass gives no type argument or one with a type
   *     variable
   */
  protected TypeRef() {
    Type superclass = getClass().getGenericSuperclass();
    if (!(superclass instanceof ParameterizedType p) || p.getRawType() != TypeRef.class) {
      throw new IllegalArgumentException(
          "create a TypeRef with its type argument, e.g. new TypeRef<List<Charge>>() {}");
    }
    this.type = checked(p.getActualTypeArguments()[0]);
  }

  private TypeRef(Type type, boolean unused) {
    this.type = checked(type);
  }

  /**
   * {@return the ref of a plain class, e.g. {@code TypeRef.of(Charge.class)}}
   *
   * @param <T> the type
   * @param type the type
   */
  public static <T> TypeRef<T> of(Class<T> type) {
    return new Resolved<>(Objects.requireNonNull(type, "type"));
  }

  /**
   * {@return {@code List<E>}}
   *
   * @param <E> the element type
   * @param element the element
   */
  public static <E> TypeRef<List<E>> listOf(Class<E> element) {
    return listOf(of(element));
  }

  /**
   * {@return {@code List<E>} of any element type, e.g. {@code listOf(listOf(Charge.class))}}
   *
   * @param <E> the element type
   * @param element the element
   */
  public static <E> TypeRef<List<E>> listOf(TypeRef<E> element) {
    return new Resolved<>(new Parameterized(List.class, element.type()));
  }

  /**
   * {@return {@code Map<String, V>}: a JSON object with values of one type}
   *
   * @param <V> the value type
   * @param value the value
   */
  public static <V> TypeRef<Map<String, V>> mapOf(Class<V> value) {
    return mapOf(of(value));
  }

  /**
   * {@return {@code Map<String, V>} of any value type}
   *
   * @param <V> the value type
   * @param value the value
   */
  public static <V> TypeRef<Map<String, V>> mapOf(TypeRef<V> value) {
    return new Resolved<>(new Parameterized(Map.class, String.class, value.type()));
  }

  /** {@return the Java type, e.g. {@code java.util.List<Charge>}} */
  public final Type type() {
    return type;
  }

  /** {@return the class of the type, e.g. {@code List.class} for {@code List<Charge>}} */
  public final Class<?> rawType() {
    return raw(type);
  }

  @Override
  public final boolean equals(Object o) {
    return o instanceof TypeRef<?> other && other.type.equals(type);
  }

  @Override
  public final int hashCode() {
    return type.hashCode();
  }

  @Override
  public final String toString() {
    return "TypeRef<" + type.getTypeName() + ">";
  }

  private static Type checked(Type t) {
    if (t instanceof Class<?>) {
      return t;
    }
    if (t instanceof ParameterizedType p) {
      for (Type a : p.getActualTypeArguments()) {
        checked(a);
      }
      return t;
    }
    if (t instanceof GenericArrayType a) {
      checked(a.getGenericComponentType());
      return t;
    }
    if (t instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        checked(b);
      }
      for (Type b : w.getLowerBounds()) {
        checked(b);
      }
      return t;
    }
    if (t instanceof TypeVariable<?> v) {
      throw new IllegalArgumentException(
          "type variable "
              + v.getName()
              + " is not known at run time; pass a concrete TypeRef instead of capturing it");
    }
    throw new IllegalArgumentException("unsupported type " + t);
  }

  private static Class<?> raw(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    if (t instanceof GenericArrayType a) {
      return java.lang.reflect.Array.newInstance(raw(a.getGenericComponentType()), 0).getClass();
    }
    return Object.class;
  }

  // A ref built by a factory instead of a subclass.
  private static final class Resolved<T> extends TypeRef<T> {
    Resolved(Type type) {
      super(type, true);
    }
  }

  // A parameterized type equal to the JDK's own representation of the same type.
  private record Parameterized(Class<?> rawType, Type... arguments) implements ParameterizedType {
    @Override
    public Type[] getActualTypeArguments() {
      return arguments.clone();
    }

    @Override
    public Type getRawType() {
      return rawType;
    }

    @Override
    public Type getOwnerType() {
      return rawType.getDeclaringClass();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ParameterizedType p
          && rawType.equals(p.getRawType())
          && Objects.equals(getOwnerType(), p.getOwnerType())
          && java.util.Arrays.equals(arguments, p.getActualTypeArguments());
    }

    @Override
    public int hashCode() {
      // The JDK's formula, so that equal types hash alike whichever created them.
      return java.util.Arrays.hashCode(arguments)
          ^ Objects.hashCode(getOwnerType())
          ^ rawType.hashCode();
    }

    @Override
    public String getTypeName() {
      StringBuilder b = new StringBuilder(rawType.getTypeName()).append('<');
      for (int i = 0; i < arguments.length; i++) {
        b.append(i == 0 ? "" : ", ").append(arguments[i].getTypeName());
      }
      return b.append('>').toString();
    }

    @Override
    public String toString() {
      return getTypeName();
    }
  }
}
