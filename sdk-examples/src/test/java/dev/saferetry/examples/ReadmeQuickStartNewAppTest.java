package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's quick start compiles in a brand-new Maven app whose pom holds exactly the README's
 * dependency snippet: the test writes that app under {@code target/}, puts this build's artifacts
 * into a local repository of its own under {@code target/} (never the user's {@code ~/.m2}, whose
 * third-party artifacts it only reads, through links), and runs Maven offline on it.
 */
class ReadmeQuickStartNewAppTest {
  private static final String VERSION = "0.1.0-SNAPSHOT";
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** This build's artifacts the snippet reaches: parents and BOM (poms), then the jars. */
  private static final List<String> POMS =
      List.of("pom.xml", "sdk/pom.xml", "sdk/clients/pom.xml", "sdk/bom/pom.xml");

  private static final List<String> JARS = List.of("sdk/core", "sdk/clients/payments");

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void theQuickStartCompilesInANewAppWithExactlyTheReadmeSnippet() throws Exception {
    String section = Readme.section("## Quick start");
    String snippet = Readme.block(section, "```xml\n");
    String code = Readme.block(section, "```java\n");
    assertThat(snippet).contains("<artifactId>saferetry-payments</artifactId>");

    Path work = Path.of("target/quickstart-new-app").toAbsolutePath();
    deleteTree(work);
    Path app = Files.createDirectories(work.resolve("app"));
    Files.writeString(app.resolve("pom.xml"), pom(snippet));
    Path sources = Files.createDirectories(app.resolve("src/main/java"));
    Files.writeString(sources.resolve("Checkout.java"), code);
    Path repo = localRepository(work.resolve("repo"));

    Process mvn =
        new ProcessBuilder(mvn(), "-o", "-B", "-q", "-Dmaven.repo.local=" + repo, "compile")
            .directory(app.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("mvn.log").toFile())
            .start();
    assertThat(mvn.waitFor(75, TimeUnit.SECONDS)).as("Maven finished within 75 s").isTrue();
    assertThat(mvn.exitValue())
        .as("mvn compile in the new app:\n%s", Files.readString(work.resolve("mvn.log")))
        .isZero();
    assertThat(app.resolve("target/classes/Checkout.class")).exists();
  }

  /** A minimal app: coordinates, Java 17, the compiler the project uses, and the snippet. */
  private static String pom(String snippet) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>checkout</artifactId>
          <version>1.0</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
          <build>
            <plugins>
              <plugin>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.14.0</version>
              </plugin>
              <plugin>
                <artifactId>maven-resources-plugin</artifactId>
                <version>3.3.1</version>
              </plugin>
            </plugins>
          </build>
        %s
        </project>
        """
        .formatted(snippet);
  }

  /**
   * A local repository holding this build's artifacts, with every other group linked to the user's
   * repository (read for third-party artifacts and Maven's plugins).
   */
  private static Path localRepository(Path repo) throws IOException {
    Path user = userRepository();
    Files.createDirectories(repo.resolve("dev/saferetry"));
    link(user, repo, "dev");
    link(user.resolve("dev"), repo.resolve("dev"), "saferetry");
    for (String pom : POMS) {
      Path file = ROOT.resolve(pom);
      install(repo, artifactId(file), file, null);
    }
    for (String module : JARS) {
      Path pom = ROOT.resolve(module).resolve("pom.xml");
      String artifactId = artifactId(pom);
      install(repo, artifactId, pom, jar(ROOT.resolve(module), artifactId));
    }
    return repo;
  }

  /** Links each entry of {@code from} into {@code to}, except {@code except}. */
  private static void link(Path from, Path to, String except) throws IOException {
    try (Stream<Path> entries = Files.list(from)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String name = entry.getFileName().toString();
        if (!name.equals(except) && !Files.exists(to.resolve(name))) {
          Files.createSymbolicLink(to.resolve(name), entry);
        }
      }
    }
  }

  private static void install(Path repo, String artifactId, Path pom, Path jar) throws IOException {
    Path dir = Files.createDirectories(repo.resolve("dev/saferetry/" + artifactId + "/" + VERSION));
    String base = artifactId + "-" + VERSION;
    Files.copy(pom, dir.resolve(base + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    if (jar != null) {
      Files.copy(jar, dir.resolve(base + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * The module's packaged jar when the build made one (a reactor run to {@code package} or later);
   * otherwise a jar of its compiled classes, which is what that jar holds.
   */
  private static Path jar(Path module, String artifactId) throws IOException {
    Path packaged = module.resolve("target/" + artifactId + "-" + VERSION + ".jar");
    Path classes = module.resolve("target/classes");
    assertThat(classes).as("compiled classes of " + module).isDirectory();
    if (Files.exists(packaged)
        && Files.getLastModifiedTime(packaged).compareTo(Files.getLastModifiedTime(classes)) >= 0) {
      return packaged;
    }
    Path jar = Files.createTempFile(Path.of("target").toAbsolutePath(), artifactId, ".jar");
    try (OutputStream out = Files.newOutputStream(jar);
        ZipOutputStream zip = new ZipOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        zip.putNextEntry(new ZipEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    }
    return jar;
  }

  private static String artifactId(Path pom) throws IOException {
    String text = Files.readString(pom, StandardCharsets.UTF_8);
    // The project's own artifactId: the first one after the parent element, if any.
    int from = text.contains("</parent>") ? text.indexOf("</parent>") : text.indexOf("<project");
    int start = text.indexOf("<artifactId>", from) + "<artifactId>".length();
    return text.substring(start, text.indexOf("</artifactId>", start));
  }

  private static Path userRepository() {
    String configured = System.getProperty("quickstart.userRepository");
    Path repo =
        configured != null && !configured.isBlank()
            ? Path.of(configured)
            : Path.of(System.getProperty("user.home"), ".m2", "repository");
    assertThat(repo).as("the user's local Maven repository").isDirectory();
    return repo;
  }

  private static String mvn() {
    String home = System.getProperty("maven.home");
    if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
      return Path.of(home, "bin", "mvn").toString();
    }
    return "mvn";
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) { // walk does not follow the repository's links
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /** Sections and fenced blocks of the README. */
  static final class Readme {
    private Readme() {}

    static String section(String heading) throws IOException {
      String readme = Files.readString(ROOT.resolve("README.md"));
      assertThat(readme).contains(heading + "\n");
      String rest = readme.substring(readme.indexOf(heading + "\n") + heading.length() + 1);
      int next = rest.indexOf("\n## ");
      return next < 0 ? rest : rest.substring(0, next + 1);
    }

    static String block(String section, String fence) {
      int start = section.indexOf(fence);
      assertThat(start).as("a " + fence.strip() + " block").isNotNegative();
      int from = start + fence.length();
      return section.substring(from, section.indexOf("\n```\n", from) + 1);
    }
  }
}
