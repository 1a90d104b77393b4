package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.newapp.NewAppBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's quick start compiles in a brand-new Maven app whose pom holds exactly the README's
 * dependency snippet: the test writes that app under {@code target/}, puts this build's artifacts
 * into a local repository of its own under {@code target/} (never the user's {@code ~/.m2}, whose
 * third-party artifacts it only reads, through links), and runs Maven offline on it.
 */
class ReadmeQuickStartNewAppTest {
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
    NewAppBuild.deleteTree(work);
    Path app = Files.createDirectories(work.resolve("app"));
    Files.writeString(app.resolve("pom.xml"), pom(snippet));
    Path sources = Files.createDirectories(app.resolve("src/main/java"));
    Files.writeString(sources.resolve("Checkout.java"), code);
    Path repo = NewAppBuild.localRepository(work.resolve("repo"), ROOT, POMS, JARS);

    Process mvn =
        new ProcessBuilder(
                NewAppBuild.mvn(), "-o", "-B", "-q", "-Dmaven.repo.local=" + repo, "compile")
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
