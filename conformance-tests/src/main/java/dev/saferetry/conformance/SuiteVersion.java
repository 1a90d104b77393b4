package dev.saferetry.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The suite's version, from the resource the build writes. Thread-safe. */
final class SuiteVersion {
  private static final String VERSION = load();

  private SuiteVersion() {}

  static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = SuiteVersion.class.getResourceAsStream("suite.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      String v = p.getProperty("version", "");
      return v.isBlank() || v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }
}
