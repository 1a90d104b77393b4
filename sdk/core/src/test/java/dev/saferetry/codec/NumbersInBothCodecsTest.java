package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One rule for numbers in both codecs: finite, at most 100 digits written out in full, and
 * floating-point values in the same shortest form on every JDK. A refused number is refused by both
 * codecs with the same message, which names the field and never quotes the value.
 */
class NumbersInBothCodecsTest {
  private static final List<BodyCodec> CODECS = List.of(BodyCodec.json(), BodyCodec.form());

  record Rates(double primitive, Double boxed, float small, Float boxedSmall) {}

  private static IllegalArgumentException refusedByBoth(Object body) {
    IllegalArgumentException json =
        (IllegalArgumentException) catchThrowable(() -> CODECS.get(0).encode(body));
    IllegalArgumentException form =
        (IllegalArgumentException) catchThrowable(() -> CODECS.get(1).encode(body));
    assertThat(json).as("JSON codec refuses").isNotNull();
    assertThat(form).as("form codec refuses").isNotNull();
    assertThat(form.getMessage()).isEqualTo(json.getMessage());
    return json;
  }

  static String text(BodyCodec codec, Object value) {
    return new String(codec.encode(value).bytes(), StandardCharsets.UTF_8);
  }

  /** Before, the form codec ran out of memory writing 1e999999999 out in full. */
  @Test
  void anElevenCharacterNumberIsRefusedInsteadOfExhaustingMemory() {
    for (String huge : List.of("1e999999999", "-1e999999999", "1e-999999999", "0e-999999999")) {
      assertThat(refusedByBoth(Fields.of("amount", new BigDecimal(huge))))
          .hasMessageContaining("value of amount has 1000000000 digits")
          .hasMessageContaining("limited to 100 digits")
          .hasMessageNotContaining("999999999");
    }
  }

  @Test
  void numbersAreLimitedToAHundredDigitsWrittenOutInFull() {
    BigInteger hundredDigits = BigInteger.TEN.pow(100).subtract(BigInteger.ONE);
    List<Object> refused =
        List.of(
            new BigDecimal("1E+100"),
            new BigDecimal("1E-100"),
            new BigDecimal("-1E-100"),
            hundredDigits.add(BigInteger.ONE),
            hundredDigits.negate().subtract(BigInteger.ONE),
            BigInteger.TEN.pow(100_000),
            Double.MAX_VALUE,
            Double.MIN_VALUE,
            -1e-100,
            1.2345678901234567e-84);
    for (Object number : refused) {
      assertThat(refusedByBoth(Fields.of("metadata", Fields.of("n", List.of(1, number)))))
          .as("%s", number)
          .hasMessageContaining("value of metadata[n][1] has ")
          .hasMessageContaining("digits when written out in full");
    }
    Map<String, Object> edges =
        Fields.of(
            "a",
            new BigDecimal("1E+99"),
            "b",
            new BigDecimal("-1E-99"),
            "c",
            hundredDigits,
            "d",
            Long.MIN_VALUE,
            "e",
            1e99,
            "f",
            1e-99,
            "g",
            Float.MAX_VALUE);
    assertThat(text(BodyCodec.json(), edges))
        .isEqualTo(
            "{\"a\":1E+99,\"b\":-1E-99,\"c\":"
                + hundredDigits
                + ",\"d\":-9223372036854775808,\"e\":1.0E99,\"f\":1.0E-99,\"g\":3.4028235E38}");
    assertThat(text(BodyCodec.form(), edges))
        .isEqualTo(
            "a=1"
                + "0".repeat(99)
                + "&b=-0."
                + "0".repeat(98)
                + "1&c="
                + hundredDigits
                + "&d=-9223372036854775808&e=1"
                + "0".repeat(99)
                + "&f=0."
                + "0".repeat(98)
                + "1&g=340282350000000000000000000000000000000");
  }

  /** Before, the JSON codec sent NaN and infinities as the strings "NaN" and "Infinity". */
  @Test
  void nanAndInfinitiesAreRefusedByBothCodecsWhereverTheyAre() {
    List<Object> bodies =
        List.of(
            new Rates(Double.NaN, 1.0, 1f, 1f),
            new Rates(0, Double.POSITIVE_INFINITY, 1f, 1f),
            new Rates(0, 1.0, Float.NEGATIVE_INFINITY, 1f),
            new Rates(0, 1.0, 1f, Float.NaN));
    List<String> fields = List.of("primitive", "boxed", "small", "boxedSmall");
    for (int i = 0; i < bodies.size(); i++) {
      assertThat(refusedByBoth(bodies.get(i)))
          .hasMessage(
              "value of "
                  + fields.get(i)
                  + " is not a finite number; NaN and infinities cannot be sent");
    }
    Map<String, Object> nested =
        Fields.of(
            "list",
            List.of(1.5, Double.NaN),
            "map",
            Map.of("rate", Double.NEGATIVE_INFINITY),
            "doubles",
            new double[] {1, Double.POSITIVE_INFINITY},
            "floats",
            new float[] {Float.NaN},
            "set",
            new HashSet<>(List.of(1.0, Double.NaN)));
    for (String field : nested.keySet()) {
      assertThat(refusedByBoth(Fields.of(field, nested.get(field))))
          .hasMessageStartingWith("value of " + field + "[")
          .hasMessageContaining("is not a finite number");
    }
  }

  /**
   * Double.toString wrote 2.0E23 as 1.9999999999999998E23 up to Java 18 and as 2.0E23 after: the
   * codecs use Jackson's shortest-form writer, which gives the same text on every JDK.
   */
  @Test
  void floatingPointNumbersAreWrittenInTheirShortestFormOnEveryJdk() {
    Map<String, Object> body = Fields.of("a", 2e23, "b", 8.41e21, "c", 5.684341886080802e-14);
    assertThat(text(BodyCodec.json(), body))
        .isEqualTo("{\"a\":2.0E23,\"b\":8.41E21,\"c\":5.684341886080802E-14}");
    assertThat(text(BodyCodec.form(), body))
        .isEqualTo(
            "a=200000000000000000000000&b=8410000000000000000000&c=0.00000000000005684341886080802");
  }

  @Test
  void numbersKeepTheFormTheyWereGivenIn() {
    Map<String, Object> body =
        Fields.of(
            "a", new BigDecimal("100"),
            "b", new BigDecimal("1E+2"),
            "c", new BigDecimal("1.00"),
            "d", -0.0d,
            "e", new BigInteger("12345678901234567890"),
            "f", 0.1d);
    assertThat(text(BodyCodec.json(), body))
        .isEqualTo(
            "{\"a\":100,\"b\":1E+2,\"c\":1.00,\"d\":-0.0,\"e\":12345678901234567890,\"f\":0.1}");
    assertThat(text(BodyCodec.form(), body))
        .isEqualTo("a=100&b=100&c=1.00&d=0&e=12345678901234567890&f=0.1");
  }

  @Test
  void numberTextFromACustomSerializerIsCheckedToo() {
    assertThatThrownBy(
            () ->
                BodyCodec.json()
                    .encode(
                        Fields.of(
                            "n",
                            new java.util.concurrent.atomic.DoubleAdder() {
                              private static final long serialVersionUID = 1L;

                              @Override
                              public String toString() {
                                return "NaN";
                              }

                              @Override
                              public double doubleValue() {
                                return Double.NaN;
                              }
                            })))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value of n is not a finite number");
  }
}
