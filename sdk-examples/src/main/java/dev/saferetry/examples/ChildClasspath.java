package dev.saferetry.examples;

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
 * The class path for a child JVM running an example's or the soak's worker {@code main}. {@code
 * java.class.path} alone is not enough: under {@code mvn exec:java} it is Maven's launcher, and
 * under Surefire it may be a jar holding only a manifest. So this unions the class path property
 * (expanding manifest {@code Class-Path} entries), the URLs of the context class loader chain, and
 * the code sources of the classes the worker needs. Stateless; thread-safe.
 */
public final class ChildClasspath {
  private static final String[] NEEDED = {
    "dev.saferetry.examples.ChildClasspath",
    "dev.saferetry.SafeRetryClient",
    "okhttp3.OkHttpClient",
    "okio.Buffer",
    "kotlin.Unit",
    "com.fasterxml.jackson.databind.ObjectMapper",
    "com.fasterxml.jackson.core.JsonFactory",
    "com.fasterxml.jackson.annotation.JsonProperty",
    "io.github.resilience4j.retry.Retry",
    "io.github.resilience4j.core.IntervalFunction",
    "io.github.resilience4j.circuitbreaker.CircuitBreaker",
    "org.slf4j.LoggerFactory",
    "org.slf4j.simple.SimpleLogger"
  };

  private ChildClasspath() {}

  /** Returns the class path string for {@code java -cp}. */
  public static String build() {
    Set<String> entries = new LinkedHashSet<>();
    for (String name : NEEDED) {
      codeSource(name, entries);
    }
    for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
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

  private static void codeSource(String className, Set<String> entries) {
    try {
      Class<?> c = Class.forName(className, false, ChildClasspath.class.getClassLoader());
      CodeSource source = c.getProtectionDomain().getCodeSource();
      if (source != null && source.getLocation() != null) {
        addUrl(source.getLocation(), entries);
      }
    } catch (ClassNotFoundException | LinkageError e) {
      // Optional (e.g. no SLF4J binding): the child does without it.
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
          URL url = jar.toUri().resolve(ref).toURL();
          addUrl(url, entries);
        } catch (IOException | IllegalArgumentException e) {
          // A malformed entry: skip it.
        }
      }
    } catch (IOException e) {
      // Unreadable jar: its own path is already listed.
    }
  }
}
