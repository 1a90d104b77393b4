package dev.saferetry.generator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the generator wrote: Java sources and resources, each by its path relative to its root, in a
 * stable order.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class GeneratedSources {
  private final Map<String, String> sources;
  private final Map<String, String> resources;
  private final List<String> warnings;

  GeneratedSources(
      Map<String, String> sources, Map<String, String> resources, List<String> warnings) {
    this.sources = Collections.unmodifiableMap(new TreeMap<>(sources));
    this.resources = Collections.unmodifiableMap(new TreeMap<>(resources));
    this.warnings = List.copyOf(warnings);
  }

  /**
   * {@return what the generator worked around, e.g. a reference to a schema the document does not
   * define (its values stay raw JSON, {@code Object})}
   */
  public List<String> warnings() {
    return warnings;
  }

  /** {@return the Java sources, by path ({@code com/example/Charge.java}) } */
  public Map<String, String> sources() {
    return sources;
  }

  /** {@return the resources, by path ({@code META-INF/saferetry/typed-clients.list})} */
  public Map<String, String> resources() {
    return resources;
  }

  /**
   * Writes the sources under {@code sourceRoot} and the resources under {@code resourceRoot}, in
   * UTF-8. A file that already holds the same bytes is left untouched (its time stays), so an
   * incremental compiler sees no change.
   *
   * @param sourceRoot the source directory
   * @param resourceRoot the resource directory
   * @throws UncheckedIOException if a file cannot be written
   */
  public void writeTo(Path sourceRoot, Path resourceRoot) {
    write(sourceRoot, sources);
    write(resourceRoot, resources);
  }

  private static void write(Path root, Map<String, String> files) {
    try {
      for (Map.Entry<String, String> f : files.entrySet()) {
        Path target = root.resolve(f.getKey());
        byte[] bytes = f.getValue().getBytes(StandardCharsets.UTF_8);
        if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), bytes)) {
          continue;
        }
        Files.createDirectories(target.getParent());
        Files.write(target, bytes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write generated files under " + root, e);
    }
  }
}
