package dev.saferetry.newapp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * For tests that build a brand-new Maven project against this build's artifacts: a local repository
 * of the test's own under {@code target/} (never the user's {@code ~/.m2}, whose third-party
 * artifacts it only reads, through links), the Maven that runs this build, and a tree deleter that
 * does not follow those links. The tests' surefire passes {@code maven.home} and {@code
 * newapp.userRepository} ({@code ${settings.localRepository}}). Stateless; thread-safe.
 */
public final class NewAppBuild {
  /** The version of this build's artifacts. */
  public static final String VERSION = "0.1.0-SNAPSHOT";

  private NewAppBuild() {}

  /**
   * Makes {@code repo} a local repository holding this build's artifacts, with every other group
   * linked to the user's repository (read for third-party artifacts and Maven's plugins).
   *
   * @param repo the repository to make (under the test's {@code target/})
   * @param root the project's root directory
   * @param poms the pom-only artifacts (parents, BOM), as paths of their poms under {@code root}
   * @param jarModules the modules whose jars go in, as directories under {@code root}
   * @return {@code repo}
   */
  public static Path localRepository(
      Path repo, Path root, List<String> poms, List<String> jarModules) throws IOException {
    Path user = userRepository();
    Files.createDirectories(repo.resolve("dev/saferetry"));
    link(user, repo, "dev");
    link(user.resolve("dev"), repo.resolve("dev"), "saferetry");
    for (String pom : poms) {
      Path file = root.resolve(pom);
      install(repo, artifactId(file), file);
    }
    for (String module : jarModules) {
      Path pom = root.resolve(module).resolve("pom.xml");
      String artifactId = artifactId(pom);
      jar(root.resolve(module), artifactId, install(repo, artifactId, pom));
    }
    return repo;
  }

  /** {@return the {@code mvn} of the Maven that runs this build, else {@code mvn} on the path} */
  public static String mvn() {
    String home = System.getProperty("maven.home");
    if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
      return Path.of(home, "bin", "mvn").toString();
    }
    return "mvn";
  }

  /** Deletes {@code dir} and what it holds, if it exists, without following links. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) { // walk does not follow the repository's links
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /** Links each entry of {@code from} into {@code to}, except {@code except}. */
  private static void link(Path from, Path to, String except) throws IOException {
    if (!Files.isDirectory(from)) {
      return;
    }
    try (Stream<Path> entries = Files.list(from)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String name = entry.getFileName().toString();
        if (!name.equals(except) && !Files.exists(to.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(to.resolve(name), entry);
        }
      }
    }
  }

  /** Installs {@code pom}; {@return where the artifact's jar goes, next to it} */
  private static Path install(Path repo, String artifactId, Path pom) throws IOException {
    Path dir = Files.createDirectories(repo.resolve("dev/saferetry/" + artifactId + "/" + VERSION));
    String base = artifactId + "-" + VERSION;
    Files.copy(pom, dir.resolve(base + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    return dir.resolve(base + ".jar");
  }

  /**
   * Writes the module's jar to {@code to}: its packaged jar when the build made one after its
   * classes; otherwise a jar of its compiled classes (for a plugin, with its descriptor), which is
   * what that jar holds.
   */
  private static void jar(Path module, String artifactId, Path to) throws IOException {
    Path packaged = module.resolve("target/" + artifactId + "-" + VERSION + ".jar");
    Path classes = module.resolve("target/classes");
    if (!Files.isDirectory(classes)) {
      throw new AssertionError("no compiled classes of " + module + " (" + classes + ")");
    }
    if (Files.exists(packaged)
        && Files.getLastModifiedTime(packaged).compareTo(Files.getLastModifiedTime(classes)) >= 0) {
      Files.copy(packaged, to, StandardCopyOption.REPLACE_EXISTING);
      return;
    }
    try (OutputStream out = Files.newOutputStream(to);
        ZipOutputStream zip = new ZipOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
        zip.putNextEntry(new ZipEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    }
  }

  /** The project's own artifactId: the first one after the parent element, if any. */
  private static String artifactId(Path pom) throws IOException {
    String text = Files.readString(pom, StandardCharsets.UTF_8);
    int from = text.contains("</parent>") ? text.indexOf("</parent>") : text.indexOf("<project");
    int start = text.indexOf("<artifactId>", from) + "<artifactId>".length();
    return text.substring(start, text.indexOf("</artifactId>", start));
  }

  private static Path userRepository() {
    String configured = System.getProperty("newapp.userRepository");
    Path repo =
        configured != null && !configured.isBlank()
            ? Path.of(configured)
            : Path.of(System.getProperty("user.home"), ".m2", "repository");
    if (!Files.isDirectory(repo)) {
      throw new AssertionError("the user's local Maven repository is not a directory: " + repo);
    }
    return repo;
  }
}
