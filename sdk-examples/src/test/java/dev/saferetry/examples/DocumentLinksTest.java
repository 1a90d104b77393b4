package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README, the release notes and the guides under {@code docs/} leads
 * somewhere: to a file of the repository and, for a link into a Markdown document, to one of its
 * headings (as GitHub names their anchors). Links to other sites are not followed.
 */
class DocumentLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  private final Map<Path, Set<String>> anchors = new HashMap<>();

  @Test
  void everyRelativeLinkInTheDocumentsLeadsToAFileAndHeadingOfTheRepository() throws IOException {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path document : documents()) {
      for (String target : links(document)) {
        links++;
        String problem = problem(document, target);
        if (problem != null) {
          broken.add(ROOT.relativize(document) + ": " + target + " (" + problem + ")");
        }
      }
    }

    assertThat(links).as("links checked").isGreaterThan(20);
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void anchorsAreNamedAsGitHubNamesThem() {
    assertThat(slug("Provider presets")).isEqualTo("provider-presets");
    assertThat(slug("`executeAsync`: no thread per waiting call"))
        .isEqualTo("executeasync-no-thread-per-waiting-call");
    assertThat(slug("The conformance suite's verdicts"))
        .isEqualTo("the-conformance-suites-verdicts");
    assertThat(slug("Checkout.com")).isEqualTo("checkoutcom");
  }

  private static List<Path> documents() throws IOException {
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    files.add(ROOT.resolve("CHANGELOG.md"));
    try (Stream<Path> walk = Files.walk(ROOT.resolve("docs"))) {
      walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    return files;
  }

  /** The link targets of a document, outside code blocks and code spans. */
  private static List<String> links(Path document) throws IOException {
    List<String> targets = new ArrayList<>();
    boolean code = false;
    for (String line : Files.readAllLines(document)) {
      if (line.strip().startsWith("```")) {
        code = !code;
        continue;
      }
      if (code) {
        continue;
      }
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
      while (m.find()) {
        targets.add(m.group(1));
      }
    }
    return targets;
  }

  /** Why a link is broken, or null when it leads somewhere. */
  private String problem(Path document, String target) throws IOException {
    if (target.matches("[a-z][a-z0-9+.-]*:.*")) {
      return null; // another site (https:, mailto:)
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved =
        file.isEmpty() ? document : document.getParent().resolve(file).toAbsolutePath().normalize();
    if (!resolved.startsWith(ROOT)) {
      return "outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (hash >= 0 && resolved.toString().endsWith(".md")) {
      String anchor = target.substring(hash + 1);
      if (!anchorsOf(resolved).contains(anchor)) {
        return "no heading with anchor #" + anchor;
      }
    }
    return null;
  }

  private Set<String> anchorsOf(Path markdown) throws IOException {
    Set<String> known = anchors.get(markdown);
    if (known == null) {
      known = new HashSet<>();
      Map<String, Integer> seen = new HashMap<>();
      boolean code = false;
      for (String line : Files.readAllLines(markdown)) {
        if (line.strip().startsWith("```")) {
          code = !code;
          continue;
        }
        Matcher m = HEADING.matcher(line);
        if (!code && m.matches()) {
          String slug = slug(m.group(1));
          int n = seen.merge(slug, 1, Integer::sum) - 1;
          known.add(n == 0 ? slug : slug + "-" + n);
        }
      }
      anchors.put(markdown, known);
    }
    return known;
  }

  /** GitHub's anchor for a heading: lower case, punctuation dropped, blanks as hyphens. */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
    StringBuilder slug = new StringBuilder();
    for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        slug.append(c);
      } else if (c == ' ') {
        slug.append('-');
      }
    }
    return slug.toString();
  }
}
