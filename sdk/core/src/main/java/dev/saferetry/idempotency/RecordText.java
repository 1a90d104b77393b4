package dev.saferetry.idempotency;

import java.util.Objects;

/**
 * The rules for text that becomes part of a stored intent record. A store must give back exactly
 * the text it was given, so only text that survives an encoding round trip is accepted: no unpaired
 * surrogate (which UTF-8 cannot represent and an encoder would silently replace, making two
 * different ids one) and no control character. Stateless.
 */
final class RecordText {
  private RecordText() {}

  /**
   * Checks one field.
   *
   * @param name the parameter's name, used in the message
   * @param value the text
   * @param maxLength the largest accepted length in chars
   * @throws IllegalArgumentException if blank, too long, not well-formed or with a control
   *     character
   */
  static void check(String name, String value, int maxLength) {
    Objects.requireNonNull(value, name);
    if (value.isBlank() || value.length() > maxLength) {
      throw new IllegalArgumentException(
          name + " must be 1.." + maxLength + " characters and not blank");
    }
    // One pass over the text (this runs for every intent record a call makes); the surrogate
    // check, which reports first, only runs when there is a surrogate at all.
    int control = -1;
    boolean surrogates = false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (control < 0 && Character.isISOControl(c)) {
        control = i;
      } else if (Character.isSurrogate(c)) {
        surrogates = true;
      }
    }
    if (surrogates) {
      checkWellFormed(name, value);
    }
    if (control >= 0) {
      throw new IllegalArgumentException(
          name + " must not contain control characters (found one at index " + control + ")");
    }
  }

  /**
   * Checks that every surrogate is paired, so that the text has an exact UTF-8 form.
   *
   * @throws IllegalArgumentException naming the index of the first unpaired surrogate
   */
  static void checkWellFormed(String name, String value) {
    int bad = firstUnpairedSurrogate(value);
    if (bad >= 0) {
      throw new IllegalArgumentException(
          name
              + " is not well-formed Unicode text: unpaired surrogate at index "
              + bad
              + "; it cannot be stored exactly");
    }
  }

  /** Returns the index of the first unpaired surrogate in {@code value}, or -1. */
  static int firstUnpairedSurrogate(String value) {
    int first = 0;
    while (first < value.length() && !Character.isSurrogate(value.charAt(first))) {
      first++;
    }
    for (int i = first; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++; // a valid pair
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
