package dev.saferetry.internal.codec;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The one rule both codecs apply to numbers: finite, and at most {@value #MAX_DIGITS} digits when
 * written out in full, without an exponent ({@code 1E+99} and {@code 1E-99} pass, {@code 1E+100}
 * and {@code 1E-100} do not). The bound is what keeps an 11-character {@code 1e999999999} from
 * becoming a billion-digit form value; 100 digits hold any amount, rate or identifier a payment API
 * takes. Floating-point values are written in their shortest form by Jackson's own algorithm, the
 * same on every JDK ({@code Double.toString} wrote {@code 2.0E23} as {@code 1.9999999999999998E23}
 * before Java 19).
 */
final class Numbers {
  /** The most digits a number may have when written without an exponent. */
  static final int MAX_DIGITS = 100;

  // Longer number text cannot be within the bound: it is refused before it is parsed.
  private static final int MAX_TEXT = 2 * MAX_DIGITS + 16;

  private static final BigInteger LIMIT = BigInteger.TEN.pow(MAX_DIGITS);

  private Numbers() {}

  static void check(BigDecimal value, Where where) {
    long digits = plainDigits(value);
    if (digits > MAX_DIGITS) {
      throw tooLong(where, digits);
    }
  }

  static void check(BigInteger value, Where where) {
    if (value.abs().compareTo(LIMIT) >= 0) {
      throw tooLong(where, -1);
    }
  }

  static void check(double value, Where where) {
    if (!Double.isFinite(value)) {
      throw notFinite(where);
    }
    check(new BigDecimal(text(value)).stripTrailingZeros(), where); // 1.0E-99 is 100 digits
  }

  static void check(float value, Where where) {
    if (!Float.isFinite(value)) {
      throw notFinite(where);
    }
    check(new BigDecimal(text(value)).stripTrailingZeros(), where);
  }

  /** A number a serializer wrote as text: it must be a finite decimal number within the bound. */
  static void check(String text, Where where) {
    if (text.length() > MAX_TEXT) {
      throw tooLong(where, -1);
    }
    BigDecimal value;
    try {
      value = new BigDecimal(text.strip());
    } catch (NumberFormatException e) {
      throw notFinite(where);
    }
    check(value, where);
  }

  /** The shortest text that reads back as {@code value}, the same on every JDK. */
  static String text(double value) {
    return NumberOutput.toString(value, true);
  }

  /** The shortest text that reads back as {@code value}, the same on every JDK. */
  static String text(float value) {
    return NumberOutput.toString(value, true);
  }

  /** A checked double in plain decimal without trailing zeros: {@code 2}, {@code 0.1}. */
  static String plain(double value) {
    return new BigDecimal(text(value)).stripTrailingZeros().toPlainString();
  }

  /** A checked float in plain decimal without trailing zeros. */
  static String plain(float value) {
    return new BigDecimal(text(value)).stripTrailingZeros().toPlainString();
  }

  // The digits of BigDecimal.toPlainString(), computed without building it.
  private static long plainDigits(BigDecimal value) {
    long precision = value.precision();
    long scale = value.scale();
    if (scale <= 0) {
      return precision - scale; // 1E+2 is 100
    }
    return Math.max(precision, scale + 1); // 0.001 is 4 digits, 12.34 is 4
  }

  private static BodyRefusal notFinite(Where where) {
    return new BodyRefusal(
        "value of "
            + where.describe()
            + " is not a finite number; NaN and infinities cannot be sent");
  }

  private static BodyRefusal tooLong(Where where, long digits) {
    return new BodyRefusal(
        "value of "
            + where.describe()
            + " has "
            + (digits < 0 ? "more than " + MAX_DIGITS : Long.toString(digits))
            + " digits when written out in full; numbers are limited to "
            + MAX_DIGITS
            + " digits (1E+99 and 1E-99 pass, 1E+100 and 1E-100 do not)");
  }
}
