package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.saferetry.internal.codec.FormCodec;
import dev.saferetry.internal.codec.JsonCodec;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What else could make one value two different bodies: a field written twice, the JVM's locale or
 * time zone in a date. Both codecs refuse the first and write the same text for the others in every
 * process.
 */
class FieldNamesAndDatesTest {
  /** A property and an any-getter entry with the same name. */
  public static final class Amounts {
    public long amount = 100;

    @JsonAnyGetter
    public Map<String, Object> extra() {
      return Map.of("amount", 99_999_999);
    }
  }

  /** Any-getter entries come from a HashMap: written after the properties, sorted. */
  public static final class Extras {
    public long amount = 100;

    @JsonAnyGetter
    public Map<String, Object> extra() {
      Map<String, Object> extra = new HashMap<>();
      extra.put("zeta", 1);
      extra.put("Aa", 2);
      extra.put("BB", 3);
      return extra;
    }
  }

  record Scheduled(@JsonFormat(pattern = "EEEE d MMMM yyyy") Date day) {}

  static String text(BodyCodec codec, Object value) {
    return new String(codec.encode(value).bytes(), StandardCharsets.UTF_8);
  }

  @Test
  void aFieldWrittenTwiceIsRefusedInsteadOfLettingTheServerPickOne() {
    for (BodyCodec codec : List.of(BodyCodec.json(), BodyCodec.form())) {
      assertThatThrownBy(() -> codec.encode(new Amounts()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("field amount twice");
      assertThatThrownBy(() -> codec.encode(Fields.of("order", new Amounts())))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("field order[amount] twice");
    }
  }

  @Test
  void anyGetterEntriesFollowThePropertiesInKeyOrder() {
    assertThat(text(BodyCodec.json(), new Extras()))
        .isEqualTo("{\"amount\":100,\"Aa\":2,\"BB\":3,\"zeta\":1}");
    assertThat(text(BodyCodec.form(), new Extras())).isEqualTo("amount=100&Aa=2&BB=3&zeta=1");
  }

  @Test
  void sqlDatesAreWrittenAsInstantsNotInTheJvmsTimeZone() {
    ObjectMapper textDates =
        new ObjectMapper().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    Map<String, Object> body =
        Fields.of(
            "day", new java.sql.Date(86_400_000L),
            "time", new java.sql.Time(3_600_000L),
            "at", new Date(0));
    assertThat(text(new OwnCodec(JsonCodec.of(textDates), "JsonCodec"), body))
        .isEqualTo(
            "{\"at\":\"1970-01-01T00:00:00.000+00:00\",\"day\":\"1970-01-02T00:00:00.000+00:00\","
                + "\"time\":\"1970-01-01T01:00:00.000+00:00\"}");
    assertThat(
            text(OwnCodec.form(FormCodec.of(textDates, false, false), FormStyle.defaults()), body))
        .isEqualTo(
            "at=1970-01-01T00%3A00%3A00.000%2B00%3A00&day=1970-01-02T00%3A00%3A00.000%2B00%3A00"
                + "&time=1970-01-01T01%3A00%3A00.000%2B00%3A00");
    assertThat(text(BodyCodec.json(), body))
        .isEqualTo("{\"at\":0,\"day\":86400000,\"time\":3600000}");
  }

  /**
   * A format's JVM defaults are replaced (see CanonicalBytesAcrossJvmsTest); explicit ones stay.
   */
  @Test
  void aDateFormatsExplicitTimeZoneAndLocaleAreKept() {
    java.text.SimpleDateFormat paris =
        new java.text.SimpleDateFormat("EEEE d MMMM yyyy HH:mm", Locale.FRANCE);
    paris.setTimeZone(java.util.TimeZone.getTimeZone("Europe/Paris"));
    assumeFalse(java.util.TimeZone.getDefault().getID().equals("Europe/Paris"));
    assumeFalse(Locale.getDefault().equals(Locale.FRANCE));
    assertThat(
            text(
                new OwnCodec(JsonCodec.of(new ObjectMapper().setDateFormat(paris)), "JsonCodec"),
                Fields.of("at", new Date(0))))
        .isEqualTo("{\"at\":\"jeudi 1 janvier 1970 01:00\"}");
  }

  @Test
  void aRelativeFilePathIsRefusedBecauseItWouldBeResolvedAgainstTheWorkingDirectory() {
    for (BodyCodec codec : List.of(BodyCodec.json(), BodyCodec.form())) {
      for (Object relative :
          List.of(new java.io.File("receipt.pdf"), java.nio.file.Path.of("a/b"))) {
        assertThatThrownBy(() -> codec.encode(Fields.of("doc", relative)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("value of doc is a relative file path");
      }
    }
    assertThat(text(BodyCodec.json(), Fields.of("doc", new java.io.File("/srv/receipt.pdf"))))
        .isEqualTo("{\"doc\":\"/srv/receipt.pdf\"}");
  }

  @Test
  void datePatternsAreWrittenInEnglishWhateverTheJvmsOrTheMappersLocale() {
    ObjectMapper german = new ObjectMapper().setLocale(Locale.GERMANY);
    Scheduled body = new Scheduled(new Date(0));
    assertThat(text(new OwnCodec(JsonCodec.of(german), "JsonCodec"), body))
        .isEqualTo("{\"day\":\"Thursday 1 January 1970\"}");
    assertThat(text(OwnCodec.form(FormCodec.of(german, false, false), FormStyle.defaults()), body))
        .isEqualTo("day=Thursday+1+January+1970");
  }
}
