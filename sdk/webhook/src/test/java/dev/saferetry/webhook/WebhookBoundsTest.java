package dev.saferetry.webhook;

import static dev.saferetry.webhook.Signing.github;
import static dev.saferetry.webhook.Signing.standardV1;
import static dev.saferetry.webhook.Signing.stripeV1;
import static dev.saferetry.webhook.Signing.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every public input of the verifiers is bounded: a tolerance that is not positive or longer than a
 * day is refused when the verifier is built, and hostile timestamps, clocks at either end of time
 * and hostile header values all end in a typed {@link WebhookVerificationException} that never
 * quotes them — never in a raw runtime exception.
 */
class WebhookBoundsTest {
  static final String STRIPE_SECRET = "whsec_bounds_secret_0123456789";
  static final String STANDARD_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  static final long NOW = 1_767_225_600L;
  static final byte[] EVENT = utf8("{\"id\":\"evt_1\",\"object\":\"event\"}");

  static Clock at(Instant instant) {
    return Clock.fixed(instant, ZoneOffset.UTC);
  }

  /** Builds each timed verifier with a tolerance, so that every verifier is held to one rule. */
  static List<Function<Duration, Object>> timedVerifiers() {
    return List.of(
        t -> StripeWebhookVerifier.of(STRIPE_SECRET).withTolerance(t),
        t -> StandardWebhookVerifier.of(STANDARD_SECRET).withTolerance(t));
  }

  @Test
  void everyTimedVerifierRefusesAToleranceThatIsNotPositiveOrLongerThanADay() {
    for (Function<Duration, Object> build : timedVerifiers()) {
      for (Duration bad :
          List.of(
              Duration.ZERO,
              Duration.ofNanos(-1),
              Duration.ofSeconds(Long.MIN_VALUE),
              Duration.ofDays(1).plusNanos(1),
              Duration.ofDays(365),
              Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))) {
        assertThatThrownBy(() -> build.apply(bad))
            .as("tolerance %s", bad)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("tolerance");
      }
      assertThatThrownBy(() -> build.apply(null))
          .isInstanceOf(NullPointerException.class)
          .hasMessageContaining("tolerance");
      assertThat(build.apply(Duration.ofDays(1))).isNotNull();
      assertThat(build.apply(Duration.ofNanos(1))).isNotNull();
    }
  }

  @Test
  void aClockAtEitherEndOfTimeGivesATypedRejectionNotADateTimeException() {
    String stripeHeader = "t=" + NOW + ",v1=" + stripeV1(STRIPE_SECRET, NOW, EVENT);
    Map<String, List<String>> standardHeaders =
        Signing.headers(
            "webhook-id",
            "msg_1",
            "webhook-timestamp",
            Long.toString(NOW),
            "webhook-signature",
            standardV1(STANDARD_SECRET, "msg_1", NOW, EVENT));
    for (Duration tolerance : List.of(Duration.ofMinutes(5), Duration.ofDays(1))) {
      for (Instant end : List.of(Instant.MIN, Instant.MAX)) {
        WebhookFailure expected =
            end == Instant.MIN
                ? WebhookFailure.TIMESTAMP_IN_FUTURE
                : WebhookFailure.TIMESTAMP_TOO_OLD;
        StripeWebhookVerifier stripe =
            StripeWebhookVerifier.of(STRIPE_SECRET).withTolerance(tolerance).withClock(at(end));
        assertTyped(() -> stripe.verify(EVENT, stripeHeader), expected);
        StandardWebhookVerifier standard =
            StandardWebhookVerifier.of(STANDARD_SECRET).withTolerance(tolerance).withClock(at(end));
        assertTyped(() -> standard.verify(EVENT, standardHeaders), expected);
      }
    }
  }

  @Test
  void theToleranceIsJudgedExactlyAtItsEdgesOneDayWide() {
    StripeWebhookVerifier stripe =
        StripeWebhookVerifier.of(STRIPE_SECRET)
            .withTolerance(Duration.ofDays(1))
            .withClock(at(Instant.ofEpochSecond(NOW)));
    long day = Duration.ofDays(1).toSeconds();
    for (long t : new long[] {NOW - day, NOW + day}) {
      assertThat(stripe.verify(EVENT, "t=" + t + ",v1=" + stripeV1(STRIPE_SECRET, t, EVENT)).id())
          .isEqualTo("evt_1");
    }
    long old = NOW - day - 1;
    assertTyped(
        () -> stripe.verify(EVENT, "t=" + old + ",v1=" + stripeV1(STRIPE_SECRET, old, EVENT)),
        WebhookFailure.TIMESTAMP_TOO_OLD);
    long ahead = NOW + day + 1;
    assertTyped(
        () -> stripe.verify(EVENT, "t=" + ahead + ",v1=" + stripeV1(STRIPE_SECRET, ahead, EVENT)),
        WebhookFailure.TIMESTAMP_IN_FUTURE);
  }

  @Test
  void hostileTimestampsAreTypedRejectionsThatNeverQuoteThem() {
    StripeWebhookVerifier stripe =
        StripeWebhookVerifier.of(STRIPE_SECRET)
            .withTolerance(Duration.ofDays(1))
            .withClock(at(Instant.ofEpochSecond(NOW)));
    StandardWebhookVerifier standard =
        StandardWebhookVerifier.of(STANDARD_SECRET)
            .withTolerance(Duration.ofDays(1))
            .withClock(at(Instant.ofEpochSecond(NOW)));
    List<String> hostile =
        List.of(
            "9223372036854775807", // Long.MAX_VALUE
            "9223372036854775808", // one past it
            "99999999999999999999999999999999",
            "999999999999", // the longest accepted form, far in the future
            "000000000000",
            "0",
            "-1",
            "-9223372036854775808",
            "+1767225600",
            "1767225600.5",
            "1e9",
            "0x69553c00",
            "\u0661\u0667\u0666\u0667", // Arabic-Indic digits
            "\uFF11\uFF17\uFF16\uFF17", // full-width digits
            "1767225600\u0000",
            "1767225600\r\nX-Injected: 1",
            "1767\uD800225600",
            "NaN",
            "");
    for (String t : hostile) {
      // Signed with the secret, so that a well-formed one reaches the time check.
      String stripeHeader = "t=" + t + ",v1=" + hex(stripeSigned(t));
      assertTypedWithoutQuoting(() -> stripe.verify(EVENT, stripeHeader), t);
      Map<String, List<String>> headers = new HashMap<>();
      headers.put("webhook-id", List.of("msg_1"));
      headers.put("webhook-timestamp", List.of(t));
      headers.put("webhook-signature", List.of(standardSigned(t)));
      assertTypedWithoutQuoting(() -> standard.verify(EVENT, headers), t);
    }
  }

  @Test
  void hostileHeaderValuesAreTypedForEveryVerifier() {
    Clock now = at(Instant.ofEpochSecond(NOW));
    StripeWebhookVerifier stripe = StripeWebhookVerifier.of(STRIPE_SECRET).withClock(now);
    StandardWebhookVerifier standard = StandardWebhookVerifier.of(STANDARD_SECRET).withClock(now);
    GitHubWebhookVerifier gitHub = GitHubWebhookVerifier.of(STRIPE_SECRET);
    List<String> hostile =
        List.of(
            "",
            "   ",
            "\r\n",
            "sha256=" + github(STRIPE_SECRET, EVENT) + "\r\nX-Injected: 1",
            "v1,\u0000",
            "t=1,v1=" + "a".repeat(64) + "\uD800",
            "x".repeat(HeaderLookup.MAX_VALUE_LENGTH + 1),
            "v1," + "A".repeat(8000),
            "t=1," + "v1=,".repeat(2000),
            "\uFEFFsha256=" + "0".repeat(64));
    Map<WebhookVerifier, List<String>> reads =
        Map.of(
            stripe,
            List.of(StripeWebhookVerifier.SIGNATURE_HEADER),
            standard,
            List.of(
                StandardWebhookVerifier.ID_HEADER,
                StandardWebhookVerifier.TIMESTAMP_HEADER,
                StandardWebhookVerifier.SIGNATURE_HEADER),
            gitHub,
            List.of(GitHubWebhookVerifier.SIGNATURE_HEADER, GitHubWebhookVerifier.DELIVERY_HEADER));
    reads.forEach(
        (verifier, names) -> {
          assertThat(verifier.verify(EVENT, validHeaders())).isNotNull(); // the control
          for (String name : names) {
            for (String value : hostile) {
              Map<String, List<String>> headers = validHeaders();
              headers.put(name, List.of(value));
              Throwable thrown = catchThrowable(() -> verifier.verify(EVENT, headers));
              assertThat(thrown)
                  .as("%s with a hostile %s", verifier, name)
                  .isInstanceOf(WebhookVerificationException.class);
              if (value.strip().length() > 3) {
                assertThat(thrown.getMessage()).doesNotContain(value.strip());
              }
            }
          }
        });
    // A header list holding null, a null name, and two values for one header.
    Map<String, List<String>> odd = validHeaders();
    odd.put(null, List.of("x"));
    odd.put(GitHubWebhookVerifier.DELIVERY_HEADER, Arrays.asList(null, "d-1", "d-2"));
    assertTyped(() -> gitHub.verify(EVENT, odd), WebhookFailure.DUPLICATE_HEADER);
    odd.put(GitHubWebhookVerifier.DELIVERY_HEADER, Arrays.asList((String) null));
    assertTyped(() -> gitHub.verify(EVENT, odd), WebhookFailure.MISSING_HEADER);
  }

  private static Map<String, List<String>> validHeaders() {
    Map<String, List<String>> headers = new HashMap<>();
    headers.put(
        StripeWebhookVerifier.SIGNATURE_HEADER,
        new ArrayList<>(List.of("t=" + NOW + ",v1=" + stripeV1(STRIPE_SECRET, NOW, EVENT))));
    headers.put(StandardWebhookVerifier.ID_HEADER, List.of("msg_1"));
    headers.put(StandardWebhookVerifier.TIMESTAMP_HEADER, List.of(Long.toString(NOW)));
    headers.put(
        StandardWebhookVerifier.SIGNATURE_HEADER,
        List.of(standardV1(STANDARD_SECRET, "msg_1", NOW, EVENT)));
    headers.put(GitHubWebhookVerifier.SIGNATURE_HEADER, List.of(github(STRIPE_SECRET, EVENT)));
    headers.put(GitHubWebhookVerifier.DELIVERY_HEADER, List.of("d-1"));
    return headers;
  }

  private static byte[] stripeSigned(String t) {
    return Signing.hmac(utf8(STRIPE_SECRET), utf8(t + "."), EVENT);
  }

  private static String standardSigned(String t) {
    byte[] key = java.util.Base64.getDecoder().decode(STANDARD_SECRET.substring("whsec_".length()));
    return "v1,"
        + java.util.Base64.getEncoder()
            .encodeToString(Signing.hmac(key, utf8("msg_1." + t + "."), EVENT));
  }

  private static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }

  private static void assertTyped(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, WebhookFailure failure) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            WebhookVerificationException.class, e -> assertThat(e.failure()).isEqualTo(failure));
  }

  private static void assertTypedWithoutQuoting(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String value) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as("timestamp %s", value).isInstanceOf(WebhookVerificationException.class);
    if (value.length() > 2) {
      assertThat(thrown.getMessage()).doesNotContain(value);
    }
  }
}
