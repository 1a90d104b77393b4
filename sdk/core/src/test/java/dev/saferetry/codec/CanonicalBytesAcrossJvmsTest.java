package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.testing.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The same request value, encoded in separate JVMs that differ in everything that could leak into
 * the bytes — default time zone, default locale, the order its sets were filled in and their
 * capacity, identity hash codes, {@code Set.of}'s per-JVM seed and, where another JDK is installed,
 * the JDK — gives byte-identical bodies in both codecs.
 */
class CanonicalBytesAcrossJvmsTest {
  private static final Path THIS_JDK = Path.of(System.getProperty("java.home"));

  /** Runs {@link EncodeInChildMain} and returns its lines by name, ITERATION included. */
  private static Map<String, String> encodeIn(Path javaHome, List<String> options, String order)
      throws Exception {
    try (ChildJvm child = ChildJvm.startWith(javaHome, options, EncodeInChildMain.class, order)) {
      Map<String, String> lines = new LinkedHashMap<>();
      for (String line : child.linesThrough("END")) {
        int space = line.indexOf(' ');
        if (space > 0) {
          lines.put(line.substring(0, space), line.substring(space + 1));
        }
      }
      assertThat(child.waitForExit()).as(child.err()).isZero();
      return lines;
    }
  }

  private static void assertSameBodies(Map<String, String> a, Map<String, String> b) {
    for (String codec :
        List.of(
            "JSON",
            "FORM",
            "JSON_TEXT_DATES",
            "FORM_TEXT_DATES",
            "JSON_OWN_FORMAT",
            "FORM_OWN_FORMAT")) {
      assertThat(a.get(codec)).as(codec).doesNotStartWith("REFUSED");
      assertThat(text(b.get(codec))).as(codec).isEqualTo(text(a.get(codec)));
    }
  }

  private static String text(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }

  @Test
  void jvmsWithOtherTimeZonesLocalesAndSetOrdersWriteTheSameBytes() throws Exception {
    Map<String, String> kiritimati =
        encodeIn(
            THIS_JDK,
            List.of(
                "-Duser.timezone=Pacific/Kiritimati", "-Duser.language=de", "-Duser.country=DE"),
            "forward");
    Map<String, String> losAngeles =
        encodeIn(
            THIS_JDK,
            List.of(
                "-Duser.timezone=America/Los_Angeles", "-Duser.language=tr", "-Duser.country=TR"),
            "backward");
    // The hazard is real: the two JVMs' sets iterate in different orders.
    assertThat(losAngeles.get("ITERATION")).isNotEqualTo(kiritimati.get("ITERATION"));
    assertSameBodies(kiritimati, losAngeles);
    String json = text(kiritimati.get("JSON_TEXT_DATES"));
    assertThat(json)
        .contains("\"tags\":[\"Aa\",\"BB\",\"Bb\",\"C#\",\"gift\",\"vip\"]")
        .contains("\"methods\":[\"BANK\",\"CARD\",\"CRYPTO\",\"WALLET\"]")
        .contains("\"day\":\"1970-01-01T00:00:00.000+00:00\"")
        .contains("\"named\":\"Thursday 1 January 1970 00:00\"")
        .contains("\"rate\":2.0E23");
    assertThat(text(losAngeles.get("JSON_OWN_FORMAT"))).contains("\"at\":\"Thu 1 Jan 1970 00:00\"");
  }

  @Test
  void anotherJdkWritesTheSameBytes() throws Exception {
    Optional<Path> other = otherJdk();
    assumeTrue(
        other.isPresent(), "no JDK of another feature release is installed next to this one");
    Map<String, String> here =
        encodeIn(THIS_JDK, List.of("-Duser.timezone=UTC", "-Duser.language=en"), "forward");
    Map<String, String> there =
        encodeIn(
            other.get(),
            List.of("-Duser.timezone=Asia/Kolkata", "-Duser.language=ja", "-Duser.country=JP"),
            "backward");
    assertSameBodies(here, there);
  }

  /**
   * A Java installation next to this one (e.g. under /usr/lib/jvm) of another feature release, or
   * the one named by the system property {@code saferetry.test.otherJavaHome}.
   */
  private static Optional<Path> otherJdk() throws IOException {
    String named = System.getProperty("saferetry.test.otherJavaHome");
    if (named != null) {
      return Optional.of(Path.of(named));
    }
    String mine = feature(THIS_JDK);
    Path parent = THIS_JDK.toRealPath().getParent();
    if (mine == null || parent == null) {
      return Optional.empty();
    }
    List<Path> candidates = new ArrayList<>();
    try (Stream<Path> homes = Files.list(parent)) {
      homes.sorted().forEach(candidates::add);
    }
    for (Path home : candidates) {
      String feature = feature(home);
      if (feature != null
          && !feature.equals(mine)
          && Integer.parseInt(feature) >= 17
          && Files.isExecutable(home.resolve("bin").resolve("java"))) {
        return Optional.of(home);
      }
    }
    return Optional.empty();
  }

  /** The feature release in a Java home's {@code release} file, e.g. "25", or null. */
  private static String feature(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          return version.split("[.+-]")[0];
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }
}
