package dev.saferetry.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The resolved configuration of one suite run: target, API shape, expected statuses, declared
 * server cooperation (hooks, timings) and level overrides. Layers, later wins: built-in defaults;
 * the {@code reference} profile when no target is given; each profile named in {@code profile}
 * (comma-separated; a built-in name or a {@code .properties} path); explicit overrides (system
 * properties or launcher parameters {@code saferetry.<key>}).
 *
 * <p>Immutable and thread-safe.
 */
public final class SuiteConfig {
  /** Prefix of system properties and launcher configuration parameters. */
  public static final String PREFIX = "saferetry.";

  private static final String KEYS = PREFIX + "cfg.keys";
  private final Map<String, String> values;

  private SuiteConfig(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /**
   * Resolves a configuration from explicit overrides, keys without the {@code saferetry.} prefix
   * (e.g. {@code target}, {@code profile}, {@code headers.Authorization}).
   *
   * @throws IllegalArgumentException if a named profile does not exist
   */
  public static SuiteConfig resolve(Map<String, String> explicit) {
    Map<String, String> merged = new LinkedHashMap<>(builtIn("defaults"));
    String target = explicit.get("target");
    if (target == null || target.isBlank()) {
      merged.putAll(builtIn("reference"));
    }
    String profiles = explicit.getOrDefault("profile", "ietf");
    for (String profile : profiles.split(",")) {
      if (!profile.isBlank()) {
        merged.putAll(load(profile.strip()));
      }
    }
    merged.putAll(explicit);
    return new SuiteConfig(merged);
  }

  /** Overrides taken from system properties named {@code saferetry.*}. */
  public static Map<String, String> fromSystemProperties() {
    Map<String, String> explicit = new LinkedHashMap<>();
    System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith(PREFIX) && !name.startsWith(PREFIX + "cfg."))
        .forEach(name -> explicit.put(name.substring(PREFIX.length()), System.getProperty(name)));
    return explicit;
  }

  /** Encodes this configuration as launcher configuration parameters. */
  public Map<String, String> toLauncherParameters() {
    Map<String, String> params = new LinkedHashMap<>();
    values.forEach((k, v) -> params.put(PREFIX + "cfg." + k, v));
    params.put(KEYS, String.join("\n", values.keySet()));
    return params;
  }

  /** Decodes launcher parameters; falls back to system properties when none were passed. */
  static SuiteConfig fromLauncher(java.util.function.Function<String, String> parameter) {
    String keys = parameter.apply(KEYS);
    if (keys == null) {
      return resolve(fromSystemProperties());
    }
    Map<String, String> decoded = new LinkedHashMap<>();
    for (String key : keys.split("\n")) {
      String value = parameter.apply(PREFIX + "cfg." + key);
      decoded.put(key, value == null ? "" : value);
    }
    return new SuiteConfig(decoded);
  }

  private static Map<String, String> builtIn(String name) {
    String resource = "profiles/" + name + ".properties";
    try (InputStream in = SuiteConfig.class.getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      Properties properties = new Properties();
      properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
      return toMap(properties);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> load(String profile) {
    Map<String, String> builtIn = builtIn(profile);
    if (builtIn != null) {
      return builtIn;
    }
    Path path = Path.of(profile);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(
          "unknown profile (neither ietf, stripe, reference nor a"
              + " readable .properties file): "
              + profile);
    }
    try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      Properties properties = new Properties();
      properties.load(reader);
      return toMap(properties);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> toMap(Properties properties) {
    Map<String, String> map = new LinkedHashMap<>();
    properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
    return map;
  }

  /** The value of {@code key}, or null when absent or blank. */
  public String get(String key) {
    String value = values.get(key);
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** Integer value, or {@code fallback} when absent. */
  public int getInt(String key, int fallback) {
    String value = get(key);
    return value == null ? fallback : Integer.parseInt(value);
  }

  /** Boolean value, or {@code fallback} when absent. */
  public boolean getBoolean(String key, boolean fallback) {
    String value = get(key);
    return value == null ? fallback : Boolean.parseBoolean(value);
  }

  /** Entries whose key starts with {@code prefix}, with the prefix removed (e.g. headers). */
  public Map<String, String> withPrefix(String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(prefix) && !v.isBlank()) {
            out.put(k.substring(prefix.length()), v);
          }
        });
    return out;
  }

  /** The effective level of a case: {@code level.<id>} if set, else its default. */
  public Level level(Case c) {
    String override = get("level." + c.id());
    return override == null
        ? c.level()
        : Level.valueOf(override.toUpperCase(java.util.Locale.ROOT));
  }

  /** Target base URL, or null for the in-process reference server. */
  public String target() {
    String target = get("target");
    return target == null ? null : target.replaceAll("/+$", "");
  }

  /** All values with header values that look secret replaced by {@code ***}. */
  public Map<String, String> redacted() {
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> out.put(k, Redaction.isSecret(k) ? "***" : v));
    return out;
  }
}
