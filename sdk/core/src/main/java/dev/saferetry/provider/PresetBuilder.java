package dev.saferetry.provider;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Builds a {@link ProviderPreset}. Every setting states its default; {@link #build()} validates and
 * names the bad parameter.
 *
 * <p>Not thread-safe; the presets it builds are.
 */
public final class PresetBuilder {
  private final String name;
  private KeyPlacement keyPlacement = KeyPlacement.header();
  private BodyCodec bodyCodec = BodyCodec.json();
  private ApiKeyStyle apiKeyStyle = ApiKeyStyle.bearer();
  private final Map<String, String> defaultHeaders = new LinkedHashMap<>();
  private String versionHeader;
  private final Set<String> identityHeaders = new LinkedHashSet<>();
  private final List<String> requestIdHeaders = new ArrayList<>();
  private String errorRequestIdField;
  private ReplayMarker replayMarker;
  private final List<ErrorMatch> keyReused = new ArrayList<>();
  private final List<ErrorMatch> inProgress = new ArrayList<>();
  private ExistingResource existingResource;
  private RetryHints retryHints = RetryHints.none();
  private Duration keyRetention;
  private int keyMaxLength;
  private final List<URI> sources = new ArrayList<>();

  PresetBuilder(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  PresetBuilder(PresetValues v) {
    this(v.name());
    keyPlacement = v.keyPlacement();
    bodyCodec = v.bodyCodec();
    apiKeyStyle = v.apiKeyStyle();
    defaultHeaders.putAll(v.defaultHeaders());
    versionHeader = v.versionHeader();
    identityHeaders.addAll(v.identityHeaders());
    requestIdHeaders.addAll(v.requestIdHeaders());
    errorRequestIdField = v.errorRequestIdField();
    replayMarker = v.replayMarker();
    keyReused.addAll(v.keyReused());
    inProgress.addAll(v.inProgress());
    existingResource = v.existingResource();
    retryHints = v.retryHints();
    keyRetention = v.keyRetention();
    keyMaxLength = v.keyMaxLength();
    sources.addAll(v.sources());
  }

  /**
   * Where the key goes. Default: {@link KeyPlacement#header()} ({@code Idempotency-Key}).
   *
   * @param placement the placement
   * @return this builder
   */
  public PresetBuilder keyPlacement(KeyPlacement placement) {
    this.keyPlacement = Objects.requireNonNull(placement, "keyPlacement");
    return this;
  }

  /**
   * How bodies are encoded. Default: {@link BodyCodec#json()}.
   *
   * @param codec the codec
   * @return this builder
   */
  public PresetBuilder bodyCodec(BodyCodec codec) {
    this.bodyCodec = Objects.requireNonNull(codec, "bodyCodec");
    return this;
  }

  /**
   * How the API key is sent. Default: {@link ApiKeyStyle#bearer()}.
   *
   * @param style the style
   * @return this builder
   */
  public PresetBuilder apiKeyStyle(ApiKeyStyle style) {
    this.apiKeyStyle = Objects.requireNonNull(style, "apiKeyStyle");
    return this;
  }

  /**
   * Adds a header every request carries. Default: none.
   *
   * @param header the header
   * @param value the value
   * @return this builder
   */
  public PresetBuilder defaultHeader(String header, String value) {
    defaultHeaders.put(Objects.requireNonNull(header, "header"), Objects.requireNonNull(value));
    return this;
  }

  /**
   * The API-version header, also an identity header. Default: none.
   *
   * @param header the header
   * @return this builder
   */
  public PresetBuilder versionHeader(String header) {
    this.versionHeader = Objects.requireNonNull(header, "versionHeader");
    identityHeaders.add(header);
    return this;
  }

  /**
   * Adds a header that changes what a request means. Default: none.
   *
   * @param header the header
   * @return this builder
   */
  public PresetBuilder identityHeader(String header) {
    identityHeaders.add(Objects.requireNonNull(header, "identityHeader"));
    return this;
  }

  /**
   * Adds a response header carrying the provider's request id. Default: none.
   *
   * @param header the header
   * @return this builder
   */
  public PresetBuilder requestIdHeader(String header) {
    requestIdHeaders.add(Objects.requireNonNull(header, "requestIdHeader"));
    return this;
  }

  /**
   * The JSON pointer of the request id in error bodies. Default: none.
   *
   * @param pointer the pointer
   * @return this builder
   */
  public PresetBuilder errorRequestIdField(String pointer) {
    this.errorRequestIdField = Objects.requireNonNull(pointer, "errorRequestIdField");
    return this;
  }

  /**
   * The header marking a replayed answer. Default: none.
   *
   * @param marker the marker
   * @return this builder
   */
  public PresetBuilder replayMarker(ReplayMarker marker) {
    this.replayMarker = Objects.requireNonNull(marker, "replayMarker");
    return this;
  }

  /**
   * Adds a way the provider says "key used with another payload". Default: none.
   *
   * @param match how the answer is recognised
   * @return this builder
   */
  public PresetBuilder keyReused(ErrorMatch match) {
    keyReused.add(Objects.requireNonNull(match, "keyReused"));
    return this;
  }

  /**
   * Adds a way the provider says "same key still running". Default: none.
   *
   * @param match how the answer is recognised
   * @return this builder
   */
  public PresetBuilder inProgress(ErrorMatch match) {
    inProgress.add(Objects.requireNonNull(match, "inProgress"));
    return this;
  }

  /**
   * The conflict that means "already created". Default: none.
   *
   * @param conflict the conflict
   * @return this builder
   */
  public PresetBuilder existingResource(ExistingResource conflict) {
    this.existingResource = Objects.requireNonNull(conflict, "existingResource");
    return this;
  }

  /**
   * Retry hints. Default: {@link RetryHints#none()}.
   *
   * @param hints the hints
   * @return this builder
   */
  public PresetBuilder retryHints(RetryHints hints) {
    this.retryHints = Objects.requireNonNull(hints, "retryHints");
    return this;
  }

  /**
   * How long keys are kept at least. Default: not documented (empty).
   *
   * @param retention the retention
   * @return this builder
   */
  public PresetBuilder keyRetention(Duration retention) {
    this.keyRetention = Objects.requireNonNull(retention, "keyRetention");
    return this;
  }

  /**
   * The longest key accepted. Default: not documented (empty).
   *
   * @param length the length
   * @return this builder
   */
  public PresetBuilder keyMaxLength(int length) {
    if (length <= 0) {
      throw new IllegalArgumentException("keyMaxLength must be positive, was " + length);
    }
    this.keyMaxLength = length;
    return this;
  }

  /**
   * Adds a documentation page the preset was built from. Default: none.
   *
   * @param url the URL of the documentation page
   * @return this builder
   */
  public PresetBuilder source(String url) {
    sources.add(URI.create(Objects.requireNonNull(url, "source")));
    return this;
  }

  /**
   * Returns the preset.
   *
   * @return the preset
   * @throws IllegalArgumentException naming the bad parameter, e.g. a body key placement with a
   *     codec that cannot add fields, or a header name that is not an HTTP token
   */
  public ProviderPreset build() {
    if (errorRequestIdField != null) {
      dev.saferetry.internal.codec.ErrorBodies.checkPointer(
          errorRequestIdField, false, "errorRequestIdField");
    }
    return new ProviderPreset(
        new PresetValues(
            name,
            keyPlacement,
            bodyCodec,
            apiKeyStyle,
            defaultHeaders,
            versionHeader,
            identityHeaders,
            requestIdHeaders,
            errorRequestIdField,
            replayMarker,
            keyReused,
            inProgress,
            existingResource,
            retryHints,
            keyRetention,
            keyMaxLength,
            sources));
  }
}
