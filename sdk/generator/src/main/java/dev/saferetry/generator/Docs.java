package dev.saferetry.generator;

/** Turns a spec's description into Javadoc text that cannot end the comment or start a tag. */
final class Docs {
  private static final int MAX = 600;

  private Docs() {}

  static String of(String description, String fallback) {
    if (description == null || description.isBlank()) {
      return fallback + "\n";
    }
    String d = description.strip().replace("*/", "*&#47;").replace("@", "&#64;").replace("\r", "");
    // Keep the first paragraph: the rest of a provider's prose is for its own reference pages.
    int para = d.indexOf("\n\n");
    if (para > 0) {
      d = d.substring(0, para);
    }
    if (d.length() > MAX) {
      int cut = d.lastIndexOf(' ', MAX);
      d = d.substring(0, cut > 0 ? cut : MAX) + " …";
    }
    return d + "\n";
  }
}
