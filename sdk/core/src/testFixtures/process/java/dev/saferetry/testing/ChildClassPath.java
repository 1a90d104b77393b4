package dev.saferetry.testing;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The class path for a child JVM that runs a class of this JVM. {@code java.class.path} alone is
 * not enough: under {@code mvn exec:java} it is Maven's launcher (the project's classes are in a
 * {@link URLClassLoader}), and under Surefire it may be a jar holding only a manifest. So this
 * unions Surefire's published test class path, {@code java.class.path} (expanding manifest {@code
 * Class-Path} entries), the URLs of the context class loader chain and the main class's own code
 * source.
 *
 * <p>Stateless; thread-safe.
 */
public final class ChildClassPath {
  private ChildClassPath() {}

  /** Returns the class path string for {@code java -cp} that can load {@code mainClass}. */
  public static String of(Class<?> mainClass) {
    Set<String> entries = new LinkedHashSet<>();
    codeSource(mainClass, entries);
    String surefire = System.getProperty("surefire.test.class.path", "");
    String plain = System.getProperty("java.class.path", "");
    for (String e : (surefire + File.pathSeparator + plain).split(File.pathSeparator)) {
      if (!e.isEmpty()) {
        entries.add(e);
        manifestEntries(Path.of(e), entries);
      }
    }
    for (ClassLoader cl = Thread.currentThread().getContextClassLoader();
        cl != null;
        cl = cl.getParent()) {
      if (cl instanceof URLClassLoader u) {
        for (URL url : u.getURLs()) {
          addUrl(url, entries);
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static void codeSource(Class<?> c, Set<String> entries) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    if (source != null && source.getLocation() != null) {
      addUrl(source.getLocation(), entries);
    }
  }

  private static void addUrl(URL url, Set<String> entries) {
    try {
      if ("file".equals(url.getProtocol())) {
        entries.add(Path.of(url.toURI()).toString());
      }
    } catch (URISyntaxException | IllegalArgumentException e) {
      // Not a plain file location: skip it.
    }
  }

  private static void manifestEntries(Path jar, Set<String> entries) {
    if (!jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) {
      return;
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      Manifest m = file.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
      if (cp == null) {
        return;
      }
      for (String ref : cp.trim().split("\\s+")) {
        try {
          addUrl(jar.toUri().resolve(ref).toURL(), entries);
        } catch (IOException | IllegalArgumentException e) {
          // A malformed entry: skip it.
        }
      }
    } catch (IOException e) {
      // Unreadable jar: its own path is already in the set.
    }
  }
}
