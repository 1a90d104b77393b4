package dev.saferetry.generator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.lang.model.SourceVersion;

/** Java identifiers from the words of a spec: schema names, JSON fields, paths, operation ids. */
final class Names {
  // Names a generated member must never take: they are the record's own or java.lang.Object's.
  private static final Set<String> RESERVED =
      Set.of(
          "hashCode",
          "toString",
          "equals",
          "getClass",
          "notify",
          "notifyAll",
          "wait",
          "clone",
          "finalize",
          "builder",
          "toBuilder",
          "extra");

  private Names() {}

  /** Splits {@code payment_intents}, {@code PaymentIntent}, {@code x-api-key} into words. */
  static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        flush(words, w);
        continue;
      }
      boolean boundary =
          Character.isUpperCase(c)
              && w.length() > 0
              && (Character.isLowerCase(w.charAt(w.length() - 1))
                  || (i + 1 < text.length() && Character.isLowerCase(text.charAt(i + 1))));
      if (boundary) {
        flush(words, w);
      }
      w.append(c);
    }
    flush(words, w);
    return words;
  }

  private static void flush(List<String> words, StringBuilder w) {
    if (w.length() > 0) {
      words.add(w.toString().toLowerCase(Locale.ROOT));
      w.setLength(0);
    }
  }

  /** {@code payment_intent} → {@code PaymentIntent}. */
  static String type(String text) {
    StringBuilder b = new StringBuilder();
    for (String w : words(text)) {
      b.append(Character.toUpperCase(w.charAt(0))).append(w, 1, w.length());
    }
    String s = b.length() == 0 ? "Unnamed" : b.toString();
    return Character.isDigit(s.charAt(0)) ? "T" + s : s;
  }

  /** {@code payment_intent} → {@code paymentIntent}; never a keyword or a reserved member. */
  static String member(String text) {
    String t = type(text);
    String s = Character.toLowerCase(t.charAt(0)) + t.substring(1);
    if (t.startsWith("T") && !text.isEmpty() && Character.isDigit(text.charAt(0))) {
      s = "n" + t.substring(1);
    }
    return SourceVersion.isKeyword(s) || RESERVED.contains(s) ? s + "_" : s;
  }

  /** {@code requires_capture} → {@code REQUIRES_CAPTURE}; {@code ""} → {@code EMPTY}. */
  static String constant(String text) {
    List<String> words = words(text);
    if (words.isEmpty()) {
      return "EMPTY";
    }
    String s = String.join("_", words).toUpperCase(Locale.ROOT);
    return Character.isDigit(s.charAt(0)) ? "_" + s : s;
  }
}
