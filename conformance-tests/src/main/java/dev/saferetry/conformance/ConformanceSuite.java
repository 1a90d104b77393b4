package dev.saferetry.conformance;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The catalogue of conformance cases: the classes that hold them and their {@link Case} metadata,
 * in report order. Immutable and thread-safe.
 */
public final class ConformanceSuite {
  /** Every class holding cases, in execution order. */
  public static final List<Class<?>> CASE_CLASSES =
      List.of(
          ReplayCases.class,
          ScopeCases.class,
          KeySyntaxCases.class,
          ConcurrencyCases.class,
          FailureCases.class,
          ExpiryCases.class);

  private static final Map<String, Case> BY_METHOD = index();

  private ConformanceSuite() {}

  private static Map<String, Case> index() {
    Map<String, Case> index = new TreeMap<>();
    for (Class<?> type : CASE_CLASSES) {
      for (Method method : type.getDeclaredMethods()) {
        Case c = method.getAnnotation(Case.class);
        if (c != null) {
          index.put(type.getName() + "#" + method.getName(), c);
        }
      }
    }
    return index;
  }

  /** The case declared by a method, or null. */
  static Case lookup(String className, String methodName) {
    return BY_METHOD.get(className + "#" + methodName);
  }

  /** Every case, sorted by id. */
  public static List<Case> cases() {
    List<Case> all = new ArrayList<>(BY_METHOD.values());
    all.sort((a, b) -> a.id().compareTo(b.id()));
    return all;
  }
}
