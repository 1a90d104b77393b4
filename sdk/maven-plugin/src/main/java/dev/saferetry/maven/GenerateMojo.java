package dev.saferetry.maven;

import dev.saferetry.generator.GeneratedSources;
import dev.saferetry.generator.Generator;
import dev.saferetry.generator.GeneratorConfig;
import dev.saferetry.generator.GeneratorException;
import dev.saferetry.generator.KeyOverride;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Generates a typed SafeRetry client from an OpenAPI document, adds it to the module's sources and
 * lists its facade in the module's {@code META-INF/saferetry/typed-clients.list}. Runs in {@code
 * generate-sources}; when neither the document nor the configuration changed since the last run, it
 * leaves the generated files alone.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.saferetry</groupId>
 *   <artifactId>saferetry-maven-plugin</artifactId>
 *   <executions><execution><goals><goal>generate</goal></goals>
 *     <configuration>
 *       <spec>src/main/openapi/payments.yaml</spec>
 *       <packageName>com.example.payments</packageName>
 *     </configuration>
 *   </execution></executions>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateMojo extends AbstractMojo {
  /** The OpenAPI 3.0 or 3.1 document, YAML or JSON. */
  @Parameter(property = "saferetry.spec", required = true)
  private File spec;

  /** The package of the generated sources. */
  @Parameter(property = "saferetry.packageName", required = true)
  private String packageName;

  /** The facade's class name; default: the document's title plus {@code Client}. */
  @Parameter private String clientName;

  /** Operation ids (or {@code METHOD /path}) to include; default: all. */
  @Parameter private List<String> includeOperations = new ArrayList<>();

  /** Tags whose operations to include; default: all. */
  @Parameter private List<String> includeTags = new ArrayList<>();

  /**
   * Key placements by operation id, replacing what the document says: {@code header:Name}, {@code
   * body:field} or {@code none}, each optionally followed by {@code :maxLength}.
   */
  @Parameter private Map<String, String> keyPlacements = new TreeMap<>();

  /** The provider preset that decides keys where the document is silent: none, stripe, adyen. */
  @Parameter(defaultValue = "none")
  private String preset;

  /** Where a POST the document and the preset are silent on gets its key; default none. */
  @Parameter private String silentWrites;

  /** Further header names that carry an idempotency key. */
  @Parameter private List<String> keyHeaderNames = new ArrayList<>();

  /** Further body field names that carry an idempotency key. */
  @Parameter private List<String> keyFieldNames = new ArrayList<>();

  /** Where the sources go; added to the module's compile source roots. */
  @Parameter(defaultValue = "${project.build.directory}/generated-sources/saferetry")
  private File outputDirectory;

  /**
   * Where this execution keeps its own resources: the facade's name, which joins {@code
   * META-INF/saferetry/typed-clients.list} in the module's classes (one line per generated client).
   */
  @Parameter(defaultValue = "${project.build.directory}/generated-resources/saferetry")
  private File resourceDirectory;

  /** Skips the goal. */
  @Parameter(property = "saferetry.skip", defaultValue = "false")
  private boolean skip;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  private MavenProject project;

  /** The module's classes directory, where the list of generated clients is kept. */
  @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true, required = true)
  private File classesDirectory;

  // The facade this execution listed before, when it regenerates: taken off the list if renamed.
  private String previous;

  /** Creates the goal; Maven calls it. */
  public GenerateMojo() {}

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("saferetry:generate skipped");
      return;
    }
    GeneratorConfig config;
    try {
      Map<String, KeyOverride> keys = new TreeMap<>();
      keyPlacements.forEach((k, v) -> keys.put(k, KeyOverride.parse(v)));
      GeneratorConfig.Builder b =
          GeneratorConfig.builder()
              .spec(spec.toPath())
              .packageName(packageName)
              .clientName(clientName)
              .includeOperations(includeOperations)
              .includeTags(includeTags)
              .keyPlacements(keys)
              .preset(preset)
              .keyHeaderNames(keyHeaderNames)
              .keyFieldNames(keyFieldNames);
      if (silentWrites != null) {
        b.silentWrites(KeyOverride.parse(silentWrites));
      }
      config = b.build();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new MojoFailureException("saferetry:generate configuration: " + e.getMessage(), e);
    }
    Path out = outputDirectory.toPath();
    Path res = resourceDirectory.toPath();
    Path stamp = out.resolveSibling(out.getFileName() + ".inputs");
    String digest = digest(config);
    try {
      if (Files.isDirectory(out)
          && Files.isRegularFile(stamp)
          && Files.readString(stamp, StandardCharsets.UTF_8).equals(digest)) {
        getLog().info("saferetry:generate: " + spec + " unchanged, sources up to date");
      } else {
        long start = System.nanoTime();
        GeneratedSources sources = Generator.generate(config);
        Path own = res.resolve(Generator.CLIENTS_LIST);
        previous =
            Files.isRegularFile(own) ? Files.readString(own, StandardCharsets.UTF_8).strip() : null;
        clear(out);
        clear(res);
        sources.writeTo(out, res);
        sources.warnings().forEach(w -> getLog().warn("saferetry:generate: " + w));
        Files.writeString(stamp, digest, StandardCharsets.UTF_8);
        getLog()
            .info(
                String.format(
                    "saferetry:generate: %d sources from %s in %d ms",
                    sources.sources().size(), spec, (System.nanoTime() - start) / 1_000_000));
      }
    } catch (GeneratorException e) {
      throw new MojoFailureException("saferetry:generate: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new MojoExecutionException("saferetry:generate cannot write " + out, e);
    }
    try {
      listClient(res);
    } catch (IOException e) {
      throw new MojoExecutionException("saferetry:generate cannot list the client", e);
    }
    project.addCompileSourceRoot(out.toString());
  }

  // The document's bytes and every setting, with the generator's version: what the output depends
  // on.
  private String digest(GeneratorConfig config) throws MojoExecutionException {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(Files.readAllBytes(spec.toPath()));
      sha.update(
          (config.fingerprint() + "\ngenerator=" + version()).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha.digest());
    } catch (IOException e) {
      throw new MojoExecutionException("saferetry:generate cannot read the document " + spec, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  // The generator's own bytes: a rebuilt generator of the same version regenerates too.
  private static String version() throws IOException {
    String v = Generator.class.getPackage().getImplementationVersion();
    Path code;
    try {
      code = Path.of(Generator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return v == null ? "unknown" : v;
    }
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
    if (Files.isRegularFile(code)) {
      sha.update(Files.readAllBytes(code));
    } else if (Files.isDirectory(code)) {
      try (Stream<Path> walk = Files.walk(code)) {
        for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
          sha.update(code.relativize(p).toString().getBytes(StandardCharsets.UTF_8));
          sha.update(Files.readAllBytes(p));
        }
      }
    }
    return v + "/" + HexFormat.of().formatHex(sha.digest());
  }

  // Each execution's facade joins one list in the classes directory: resource directories of
  // several executions would each hold the same file, and only one copy would reach the jar.
  private void listClient(Path res) throws IOException {
    Path own = res.resolve(Generator.CLIENTS_LIST);
    if (!Files.isRegularFile(own)) {
      return;
    }
    String facade = Files.readString(own, StandardCharsets.UTF_8).strip();
    Path list = classesDirectory.toPath().resolve(Generator.CLIENTS_LIST);
    java.util.TreeSet<String> names = new java.util.TreeSet<>();
    if (Files.isRegularFile(list)) {
      for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          names.add(line.strip());
        }
      }
    }
    boolean changed = previous != null && !previous.equals(facade) && names.remove(previous);
    if (names.add(facade) || changed) {
      Files.createDirectories(list.getParent());
      Files.writeString(list, String.join("\n", names) + "\n", StandardCharsets.UTF_8);
    }
  }

  private static void clear(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(dir)) {
          Files.delete(p);
        }
      }
    }
  }
}
