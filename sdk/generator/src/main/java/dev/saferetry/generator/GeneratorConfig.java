package dev.saferetry.generator;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What the generator reads and how it writes: the OpenAPI document, the package, the operations to
 * include and how an operation's idempotency key is placed where the document says nothing.
 *
 * <pre>{@code
 * GeneratorConfig config = GeneratorConfig.builder()
 *     .spec(Path.of("src/main/openapi/stripe.yaml"))
 *     .packageName("com.example.stripe")
 *     .preset("stripe")
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class GeneratorConfig {
  private static final Pattern PACKAGE = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");
  private static final Set<String> PRESETS = Set.of("none", "stripe", "adyen");

  private final Path spec;
  private final String packageName;
  private final String clientName;
  private final Set<String> includeOperations;
  private final Set<String> includeTags;
  private final Map<String, KeyOverride> keyPlacements;
  private final String preset;
  private final KeyOverride silentWrites;
  private final Set<String> keyHeaderNames;
  private final Set<String> keyFieldNames;

  private GeneratorConfig(Builder b) {
    this.spec = Objects.requireNonNull(b.spec, "spec");
    this.packageName = Objects.requireNonNull(b.packageName, "packageName");
    if (!PACKAGE.matcher(packageName).matches()) {
      throw new IllegalArgumentException(
          "packageName must be a lower-case Java package name, was " + packageName);
    }
    this.clientName = b.clientName;
    if (clientName != null && !clientName.matches("[A-Z][A-Za-z0-9]*")) {
      throw new IllegalArgumentException(
          "clientName must be a Java class name starting upper-case, was " + clientName);
    }
    this.includeOperations = Collections.unmodifiableSet(new TreeSet<>(b.includeOperations));
    this.includeTags = Collections.unmodifiableSet(new TreeSet<>(b.includeTags));
    this.keyPlacements = Collections.unmodifiableMap(new TreeMap<>(b.keyPlacements));
    this.preset = b.preset;
    this.silentWrites = b.silentWrites;
    this.keyHeaderNames = Collections.unmodifiableSet(new TreeSet<>(b.keyHeaderNames));
    this.keyFieldNames = Collections.unmodifiableSet(new TreeSet<>(b.keyFieldNames));
  }

  /** {@return a new builder} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return the OpenAPI document (YAML or JSON, OpenAPI 3.0 or 3.1)} */
  public Path spec() {
    return spec;
  }

  /** {@return the package of the generated sources} */
  public String packageName() {
    return packageName;
  }

  /** {@return the facade's simple class name, or {@code null} to derive it from the title} */
  public String clientName() {
    return clientName;
  }

  /** {@return the operations to include (operation ids or {@code "METHOD /path"}); empty: all} */
  public Set<String> includeOperations() {
    return includeOperations;
  }

  /** {@return the tags whose operations to include; empty: all} */
  public Set<String> includeTags() {
    return includeTags;
  }

  /** {@return key placements that replace what the document says, by operation id} */
  public Map<String, KeyOverride> keyPlacements() {
    return keyPlacements;
  }

  /** {@return the provider preset that decides keys where the document is silent} */
  public String preset() {
    return preset;
  }

  /** {@return where a POST gets its key when neither the document nor a preset says} */
  public KeyOverride silentWrites() {
    return silentWrites;
  }

  /** {@return further header names that carry an idempotency key, ignoring case} */
  public Set<String> keyHeaderNames() {
    return keyHeaderNames;
  }

  /** {@return further body field names that carry an idempotency key} */
  public Set<String> keyFieldNames() {
    return keyFieldNames;
  }

  /**
   * {@return a stable text of every setting but the document itself: with the document's digest it
   * says whether generated sources are up to date}
   */
  public String fingerprint() {
    return String.join(
        "\n",
        "package=" + packageName,
        "client=" + clientName,
        "operations=" + includeOperations,
        "tags=" + includeTags,
        "keys=" + keyPlacements,
        "preset=" + preset,
        "silent=" + silentWrites,
        "keyHeaders=" + keyHeaderNames,
        "keyFields=" + keyFieldNames);
  }

  @Override
  public String toString() {
    return "GeneratorConfig[" + spec + ", " + fingerprint().replace('\n', ' ') + "]";
  }

  /** Builds a {@link GeneratorConfig}. Not thread-safe. */
  public static final class Builder {
    private Path spec;
    private String packageName;
    private String clientName;
    private Set<String> includeOperations = Set.of();
    private Set<String> includeTags = Set.of();
    private Map<String, KeyOverride> keyPlacements = Map.of();
    private String preset = "none";
    private KeyOverride silentWrites = KeyOverride.none();
    private Set<String> keyHeaderNames = Set.of();
    private Set<String> keyFieldNames = Set.of();

    private Builder() {}

    /**
     * Sets the OpenAPI document. Required.
     *
     * @param spec the file
     * @return this builder
     */
    public Builder spec(Path spec) {
      this.spec = Objects.requireNonNull(spec, "spec");
      return this;
    }

    /**
     * Sets the package of the generated sources. Required.
     *
     * @param packageName e.g. {@code com.example.stripe}
     * @return this builder
     */
    public Builder packageName(String packageName) {
      this.packageName = Objects.requireNonNull(packageName, "packageName");
      return this;
    }

    /**
     * Sets the facade's class name. Default: the document's title in words plus {@code Client}.
     *
     * @param clientName e.g. {@code StripeClient}
     * @return this builder
     */
    public Builder clientName(String clientName) {
      this.clientName = clientName;
      return this;
    }

    /**
     * Includes only these operations: operation ids, or {@code "METHOD /path"}. Default: all.
     *
     * @param operations the operations
     * @return this builder
     */
    public Builder includeOperations(Iterable<String> operations) {
      this.includeOperations = copy(operations, "includeOperations");
      return this;
    }

    /**
     * Includes only operations with one of these tags. Default: all.
     *
     * @param tags the tags
     * @return this builder
     */
    public Builder includeTags(Iterable<String> tags) {
      this.includeTags = copy(tags, "includeTags");
      return this;
    }

    /**
     * Places the keys of these operations as given, whatever the document says. Default: none.
     *
     * @param placements operation id to placement
     * @return this builder
     */
    public Builder keyPlacements(Map<String, KeyOverride> placements) {
      Map<String, KeyOverride> m = new TreeMap<>();
      placements.forEach(
          (k, v) -> m.put(Objects.requireNonNull(k, "operation"), Objects.requireNonNull(v, k)));
      this.keyPlacements = m;
      return this;
    }

    /**
     * Names the provider whose rules decide keys where the document is silent: {@code stripe}
     * (every POST carries {@code Idempotency-Key}, at most 255 characters), {@code adyen} (every
     * POST carries {@code Idempotency-Key}, at most 64), or {@code none}. Default: {@code none}.
     *
     * @param preset the preset's name
     * @return this builder
     * @throws IllegalArgumentException for another name
     */
    public Builder preset(String preset) {
      String p = Objects.requireNonNull(preset, "preset").toLowerCase(Locale.ROOT);
      if (!PRESETS.contains(p)) {
        throw new IllegalArgumentException(
            "preset must be one of " + new TreeSet<>(PRESETS) + ", was " + preset);
      }
      this.preset = p;
      return this;
    }

    /**
     * Sets where a POST gets its key when neither the document nor the preset says. Default: {@link
     * KeyOverride#none()}, no key.
     *
     * @param placement the placement
     * @return this builder
     */
    public Builder silentWrites(KeyOverride placement) {
      this.silentWrites = Objects.requireNonNull(placement, "silentWrites");
      return this;
    }

    /**
     * Adds header names that carry a key, besides those whose name or description says idempotency.
     * Default: none.
     *
     * @param names the header names
     * @return this builder
     */
    public Builder keyHeaderNames(Iterable<String> names) {
      Set<String> s = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
      s.addAll(copy(names, "keyHeaderNames"));
      this.keyHeaderNames = s;
      return this;
    }

    /**
     * Adds body field names that carry a key, besides those whose name or description says
     * idempotency. Default: none.
     *
     * @param names the field names
     * @return this builder
     */
    public Builder keyFieldNames(Iterable<String> names) {
      this.keyFieldNames = copy(names, "keyFieldNames");
      return this;
    }

    /**
     * {@return the configuration}
     *
     * @throws NullPointerException if the spec or the package is missing
     * @throws IllegalArgumentException if the package or client name is not a Java name
     */
    public GeneratorConfig build() {
      return new GeneratorConfig(this);
    }

    private static Set<String> copy(Iterable<String> values, String what) {
      Set<String> s = new TreeSet<>();
      for (String v : Objects.requireNonNull(values, what)) {
        if (Objects.requireNonNull(v, what).isBlank()) {
          throw new IllegalArgumentException(what + " must not hold a blank name");
        }
        s.add(v.trim());
      }
      return List.copyOf(s).isEmpty() ? Set.of() : s;
    }
  }
}
