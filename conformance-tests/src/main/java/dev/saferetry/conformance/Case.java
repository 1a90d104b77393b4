package dev.saferetry.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a suite method as a conformance case: a stable id, its default level (a profile may
 * override it with {@code level.<id>=...}) and the one-line description printed in reports.
 * Thread-safe (an annotation).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Case {
  /** Stable id, e.g. {@code replay.same-payload}. */
  String id();

  /** Default level. */
  Level level();

  /** One line: what a conforming server does. */
  String description();
}
