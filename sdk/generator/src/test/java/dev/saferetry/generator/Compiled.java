package dev.saferetry.generator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Generated sources compiled in this JVM (javax.tools) against the test class path, and loaded. */
final class Compiled implements AutoCloseable {
  private final URLClassLoader loader;

  private Compiled(URLClassLoader loader) {
    this.loader = loader;
  }

  /** Compiles {@code sources} with -Xlint:all -Werror; fails with the compiler's messages. */
  static Compiled compile(GeneratedSources sources, Path dir) throws IOException {
    return compile(sources, dir, Map.of());
  }

  /** Compiles {@code sources} with hand-written {@code extra} sources (by path) that use them. */
  static Compiled compile(GeneratedSources sources, Path dir, Map<String, String> extra)
      throws IOException {
    Path src = dir.resolve("src");
    Path classes = dir.resolve("classes");
    sources.writeTo(src, classes);
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, String> f : sources.sources().entrySet()) {
      files.add(src.resolve(f.getKey()));
    }
    for (Map.Entry<String, String> f : extra.entrySet()) {
      Path p = src.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue());
      files.add(p);
    }
    StringWriter out = new StringWriter();
    try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null)) {
      Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromPaths(files);
      List<String> options =
          List.of(
              "--release",
              "17",
              "-Xlint:all,-processing,-serial",
              "-Werror",
              "-classpath",
              System.getProperty("java.class.path"),
              "-d",
              classes.toString());
      Boolean ok = javac.getTask(out, fm, null, options, null, units).call();
      if (!ok) {
        throw new AssertionError("generated sources do not compile:\n" + out);
      }
    }
    return new Compiled(
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, Compiled.class.getClassLoader()));
  }

  /** {@return an empty directory under target/ for one test's sources and classes, kept to read} */
  static Path workDir(String name) throws IOException {
    Path dir = Path.of("target", "generated-in-tests", name);
    if (Files.exists(dir)) {
      try (var walk = Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return Files.createDirectories(dir);
  }

  Class<?> type(String name) {
    try {
      return loader.loadClass(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError("no generated class " + name, e);
    }
  }

  ClassLoader loader() {
    return loader;
  }

  @Override
  public void close() {
    try {
      loader.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
