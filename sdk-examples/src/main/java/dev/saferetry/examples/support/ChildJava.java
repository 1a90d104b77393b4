package dev.saferetry.examples.support;

import dev.saferetry.testing.ChildClassPath;

/**
 * The class path for a child JVM that runs one of this JVM's classes. {@code java.class.path} is
 * not it under {@code mvn exec:java} (there it is Maven's launcher, and the project's classes sit
 * in a class loader of their own), so an example that starts a process of its own asks here.
 *
 * <p>Stateless; thread-safe.
 */
public final class ChildJava {
  private ChildJava() {}

  /** Returns the {@code java -cp} value that can load {@code mainClass} and its dependencies. */
  public static String classPath(Class<?> mainClass) {
    return ChildClassPath.of(mainClass);
  }
}
