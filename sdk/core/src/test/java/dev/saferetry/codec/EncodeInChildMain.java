package dev.saferetry.codec;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.saferetry.internal.codec.FormCodec;
import dev.saferetry.internal.codec.JsonCodec;
import java.math.BigDecimal;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Encodes one request value with both codecs, with Jackson's defaults and with dates as text, and
 * prints the bytes (base64) and the raw iteration order of its sets, for {@link
 * CanonicalBytesAcrossJvmsTest}. Argument: {@code forward} or {@code backward}, the order in which
 * the sets are filled. The value holds everything whose bytes could depend on the process: sets of
 * text (colliding hash codes keep insertion order), of enums (identity hash codes), {@code Set.of}
 * (a per-JVM random seed), of records and of sets; a map with number keys; a date, an SQL date and
 * a date pattern with names (time zone, locale); floating-point numbers whose {@code
 * Double.toString} changed in Java 19.
 */
public final class EncodeInChildMain {
  enum Method {
    CARD,
    BANK,
    WALLET,
    CRYPTO
  }

  record Item(String price, int quantity) {}

  record Payment(
      Set<String> tags,
      Set<Method> methods,
      Set<String> fixed,
      Set<Item> items,
      Set<Set<String>> groups,
      Map<Integer, String> byNumber,
      Date at,
      java.sql.Date day,
      @JsonFormat(pattern = "EEEE d MMMM yyyy HH:mm") Date named,
      double rate,
      float share,
      BigDecimal amount) {}

  private EncodeInChildMain() {}

  static Payment payment(boolean forward) {
    List<String> tags = List.of("Aa", "BB", "C#", "Bb", "vip", "gift");
    List<Method> methods = List.of(Method.CARD, Method.BANK, Method.WALLET, Method.CRYPTO);
    List<Item> items = List.of(new Item("p1", 2), new Item("p2", 1), new Item("p1", 1));
    List<Set<String>> groups = List.of(Set.of("Aa"), Set.of("BB", "Aa"), Set.of());
    Map<Integer, String> byNumber = new HashMap<>();
    for (int i : forward ? List.of(10, 9, 100, -1) : List.of(-1, 100, 9, 10)) {
      byNumber.put(i, "n" + i);
    }
    return new Payment(
        filled(tags, forward, 2),
        filled(methods, forward, 64),
        Set.of("v", "w", "x", "y", "z"),
        filled(items, forward, 4),
        filled(groups, forward, 8),
        byNumber,
        new Date(0),
        new java.sql.Date(0),
        new Date(0),
        2e23,
        0.1f,
        new BigDecimal("1.50"));
  }

  /** A HashSet filled in the given order, with another initial capacity for each direction. */
  private static <T> Set<T> filled(List<T> elements, boolean forward, int capacity) {
    List<T> order = new ArrayList<>(elements);
    if (!forward) {
      java.util.Collections.reverse(order);
    }
    Set<T> set = new HashSet<>(forward ? capacity : capacity * 8);
    set.addAll(order);
    return set;
  }

  public static void main(String[] args) {
    Payment p = payment(args[0].equals("forward"));
    ObjectMapper textDates =
        new ObjectMapper().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    Map<String, BodyCodec> codecs = new java.util.LinkedHashMap<>();
    codecs.put("JSON", BodyCodec.json());
    codecs.put("FORM", BodyCodec.form());
    codecs.put("JSON_TEXT_DATES", new OwnCodec(JsonCodec.of(textDates), "JsonCodec"));
    codecs.put(
        "FORM_TEXT_DATES",
        OwnCodec.form(FormCodec.of(textDates, false, false), FormStyle.defaults()));
    // The common idiom: a SimpleDateFormat in this JVM's default time zone and locale.
    ObjectMapper ownFormat =
        new ObjectMapper().setDateFormat(new SimpleDateFormat("EEE d MMM yyyy HH:mm"));
    codecs.put("JSON_OWN_FORMAT", new OwnCodec(JsonCodec.of(ownFormat), "JsonCodec"));
    codecs.put(
        "FORM_OWN_FORMAT",
        OwnCodec.form(FormCodec.of(ownFormat, false, false), FormStyle.defaults()));
    System.out.println("ITERATION " + p.tags() + " " + p.methods() + " " + p.fixed());
    codecs.forEach(
        (name, codec) -> {
          String line;
          try {
            line = Base64.getEncoder().encodeToString(codec.encode(p).bytes());
          } catch (RuntimeException e) {
            line = "REFUSED " + e.getMessage();
          }
          System.out.println(name + " " + line);
        });
    System.out.println("END");
  }
}
