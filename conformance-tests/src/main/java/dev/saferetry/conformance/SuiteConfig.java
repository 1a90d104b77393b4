package dev.saferetry.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The resolved configuration of one suite run: target, API shape, expected statuses, declared hooks
 * and timings, and level overrides. Layers, later wins: built-in defaults; the {@code reference}
 * profile when no target is given; each profile named in {@code profile} (comma-separated; a
 * built-in name or a {@code .properties} path); explicit overrides.
 *
 * <pre>{@code
 * SuiteConfig config = SuiteConfig.builder()
 *     .target("http://127.0.0.1:8080")
 *     .profile("ietf,src/test/resources/my-server.properties")
 *     .set("headers.Authorization", "Bearer sk_test_123")
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class SuiteConfig {
  /** Prefix of system properties read as overrides, e.g. {@code -Dsaferetry.target=...}. */
  static final String PREFIX = "saferetry.";

  private final Map<String, String> values;

  private SuiteConfig(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /** {@return a builder; with nothing set it grades the in-process reference server} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Resolves a configuration from explicit overrides, keys without the {@code saferetry.} prefix
   * (e.g. {@code target}, {@code profile}, {@code headers.Authorization}): what {@link
   * Builder#build()} does with the values set on it.
   *
   * @param explicit the overrides; they win over every profile, and {@code profile} names the
   *     profiles to apply ({@code ietf} when absent)
   * @return the resolved configuration
   * @throws IllegalArgumentException if a named profile does not exist, or a property, a case id in
   *     {@code cases} or a level in {@code levels} is not one the suite knows (the message names
   *     the nearest known one)
   * @throws UncheckedIOException if a profile file cannot be read
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
    merged.putIfAbsent("profile", profiles);
    KnownProperties.check(merged);
    return new SuiteConfig(merged);
  }

  /** Overrides taken from system properties named {@code saferetry.*}. */
  static Map<String, String> fromSystemProperties() {
    Map<String, String> explicit = new LinkedHashMap<>();
    System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith(PREFIX))
        .forEach(name -> explicit.put(name.substring(PREFIX.length()), System.getProperty(name)));
    return explicit;
  }

  private static Map<String, String> builtIn(String name) {
    String resource = "profiles/" + name + ".properties";
    try (InputStream in = SuiteConfig.class.getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      return toMap(new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> load(String profile) {
    Map<String, String> builtIn = profile.contains("/") ? null : builtIn(profile);
    if (builtIn != null) {
      return builtIn;
    }
    Path path = Path.of(profile);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(
          "unknown profile (neither ietf, stripe, reference, webhook nor a readable .properties file): "
              + profile);
    }
    try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      return toMap(reader);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read profile " + path, e);
    }
  }

  private static Map<String, String> toMap(Reader reader) throws IOException {
    Properties properties = new Properties();
    properties.load(reader);
    Map<String, String> map = new LinkedHashMap<>();
    properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
    return map;
  }

  /**
   * {@return the resolved value of a property, stripped, or null when absent or blank}
   *
   * @param key a property name as in a profile, e.g. {@code create.path}
   */
  public String get(String key) {
    String value = values.get(key);
    return value == null || value.isBlank() ? null : value.strip();
  }

  /**
   * Integer value, or {@code fallback} when absent.
   *
   * @throws IllegalArgumentException naming the key when the value is not an integer
   */
  long getLong(String key, long fallback) {
    String value = get(key);
    try {
      return value == null ? fallback : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer, got " + value);
    }
  }

  /** Integer value, or {@code fallback} when absent; see {@link #getLong}. */
  int getInt(String key, int fallback) {
    return Math.toIntExact(getLong(key, fallback));
  }

  /** Boolean value, or {@code fallback} when absent. */
  boolean getBoolean(String key, boolean fallback) {
    String value = get(key);
    return value == null ? fallback : Boolean.parseBoolean(value);
  }

  /** Entries whose key starts with {@code prefix}, with the prefix removed (e.g. headers). */
  Map<String, String> withPrefix(String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(prefix) && !v.isBlank()) {
            out.put(k.substring(prefix.length()), v.strip());
          }
        });
    return out;
  }

  /**
   * The effective level of a case: {@code level.<id>} if set, else {@code fallback}.
   *
   * @throws IllegalArgumentException when the override is not MUST, SHOULD or MAY
   */
  Level level(String caseId, Level fallback) {
    String override = get("level." + caseId);
    try {
      return override == null ? fallback : Level.valueOf(override.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "level." + caseId + " must be MUST, SHOULD or MAY, got " + override);
    }
  }

  /**
   * {@return the target base URL without trailing slashes, or null for the in-process reference
   * server}
   */
  public String target() {
    String target = get("target");
    return target == null ? null : target.replaceAll("/+$", "");
  }

  /** {@return the profiles applied, as given ({@code ietf} when none was named)} */
  public String profile() {
    return Objects.requireNonNullElse(get("profile"), "ietf");
  }

  /**
   * {@return every resolved value, sorted by key, with the values of secret-looking keys replaced
   * by {@code ***} and the credentials inside every URL (user info, query values) and every secret
   * value elsewhere masked too: safe to print}
   */
  public Map<String, String> redacted() {
    Redaction redaction = new Redaction(this);
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> out.put(k, Redaction.isSecret(k) ? "***" : redaction.url(v)));
    return out;
  }

  /** Every value, unredacted: for the suite's own use only. */
  Map<String, String> all() {
    return values;
  }

  /** Collects overrides and profiles; {@link #build()} resolves them. Not thread-safe. */
  public static final class Builder {
    private final Map<String, String> explicit = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Sets the base URL of the server under test; default none (the in-process reference server).
     *
     * @param baseUrl e.g. {@code http://127.0.0.1:8080}; a path and query (e.g. a token) are kept
     * @return this builder
     */
    public Builder target(String baseUrl) {
      explicit.put("target", Objects.requireNonNull(baseUrl, "baseUrl"));
      return this;
    }

    /**
     * Sets the profiles, applied left to right; default {@code ietf}.
     *
     * @param profiles comma-separated built-in names ({@code ietf}, {@code stripe}, {@code
     *     reference}, {@code webhook}) or {@code .properties} paths
     * @return this builder
     */
    public Builder profile(String profiles) {
      explicit.put("profile", Objects.requireNonNull(profiles, "profiles"));
      return this;
    }

    /**
     * Sets any property; it wins over every profile.
     *
     * @param key a property name as in a profile, e.g. {@code headers.Authorization}
     * @param value its value
     * @return this builder
     */
    public Builder set(String key, String value) {
      explicit.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * {@return the configuration: built-in defaults, then the profiles, then the properties set}
     *
     * @throws IllegalArgumentException if a named profile does not exist, or a property is not one
     *     the suite knows
     * @throws UncheckedIOException if a profile file cannot be read
     */
    public SuiteConfig build() {
      return resolve(explicit);
    }
  }
}
