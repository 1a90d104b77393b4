package dev.saferetry.resilience;

import java.time.Duration;
import java.util.Objects;

/** The policies' parameter checks; every message names the parameter. */
final class Checks {
  private Checks() {}

  static Duration nonNegative(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative, was " + d);
    }
    return d;
  }

  static Duration positive(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
    return d;
  }

  static int atLeastOne(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, was " + value);
    }
    return value;
  }

  static double finiteAtLeast(String name, double value, double min, boolean inclusive) {
    boolean ok = inclusive ? value >= min : value > min;
    if (!ok || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          name + " must be " + (inclusive ? ">= " : "> ") + min + ", was " + value);
    }
    return value;
  }
}
