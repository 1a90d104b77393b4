package dev.saferetry.internal;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.provider.ApiKeyStyle;
import dev.saferetry.provider.ProviderPreset;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The client builder's settings for the {@link ApiShape} it builds: what a preset sets, what the
 * builder's codec, API key style, header and {@code User-Agent} setters change, validated as they
 * are set. Not thread-safe (a builder is not).
 */
public final class ShapeSettings {
  private BodyCodec bodyCodec;
  private ApiKeyStyle apiKeyStyle = ApiKeyStyle.bearer();
  private final Map<String, String> defaultHeaders = new LinkedHashMap<>();
  private final Set<String> identityHeaders = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
  private String userAgent = ApiShape.SDK_AGENT;
  private ResponseRules rules = ResponseRules.COMMON;
  private int keyMaxLength;
  private String presetName;

  /** The defaults: JSON with the client's mapper, a bearer API key, the common answer rules. */
  public ShapeSettings() {}

  /** The settings of an existing client's shape, to derive another from. */
  public ShapeSettings(ApiShape shape) {
    bodyCodec = shape.codec();
    apiKeyStyle = shape.apiKeyStyle();
    defaultHeaders.putAll(shape.defaultHeaders());
    identityHeaders.addAll(shape.identityHeaders());
    userAgent = shape.userAgent();
    rules = shape.rules();
    keyMaxLength = shape.keyMaxLength();
    presetName = shape.presetName();
  }

  /** Takes the preset's codec, key style, headers, answer rules, key length limit and name. */
  public void preset(ProviderPreset preset) {
    bodyCodec = preset.bodyCodec();
    apiKeyStyle = preset.apiKeyStyle();
    defaultHeaders.putAll(preset.defaultHeaders());
    identityHeaders.addAll(preset.identityHeaders());
    rules = ResponseRules.of(preset);
    keyMaxLength = preset.keyMaxLength().orElse(0);
    presetName = preset.name();
  }

  /** The codec of operations that name none; null until set (JSON with the client's mapper). */
  public BodyCodec bodyCodec() {
    return bodyCodec;
  }

  /** Sets the default body codec. */
  public void bodyCodec(BodyCodec codec) {
    bodyCodec = Objects.requireNonNull(codec, "bodyCodec");
  }

  /** Sets where and how the API key is sent. */
  public void apiKeyStyle(ApiKeyStyle style) {
    apiKeyStyle = Objects.requireNonNull(style, "apiKeyStyle");
  }

  /**
   * Adds a header sent on every request, validated now.
   *
   * @throws IllegalArgumentException for a bad name or value, or a header the SDK sets itself
   */
  public void defaultHeader(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    ClientSettings.headerName("header name", name);
    ClientSettings.headerValue(name, value);
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("x-request-id") || lower.equals("user-agent")) {
      throw new IllegalArgumentException(
          name + " is set by the SDK; use userAgent() for User-Agent");
    }
    defaultHeaders.put(name, value);
  }

  /** Makes a header part of every keyed intent's identity. */
  public void identityHeader(String name) {
    ClientSettings.headerName("identity header", Objects.requireNonNull(name, "name"));
    identityHeaders.add(name);
  }

  /**
   * Names the application in the {@code User-Agent}, before the SDK's own token.
   *
   * @throws IllegalArgumentException if either is not a non-empty HTTP token
   */
  public void userAgent(String appName, String appVersion) {
    userAgent =
        token("appName", appName)
            + "/"
            + token("appVersion", appVersion)
            + " "
            + ApiShape.SDK_AGENT;
  }

  private static String token(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty()
        || !value
            .chars()
            .allMatch(
                c ->
                    Character.isLetterOrDigit(c) && c < 0x80
                        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0)) {
      throw new IllegalArgumentException(what + " must be a non-empty HTTP token");
    }
    return value;
  }

  /** Builds the shape; {@code defaultCodec} supplies the codec when none was set. */
  public ApiShape build(Supplier<BodyCodec> defaultCodec) {
    return new ApiShape(
        bodyCodec == null ? defaultCodec.get() : bodyCodec,
        apiKeyStyle,
        defaultHeaders,
        identityHeaders,
        userAgent,
        rules,
        keyMaxLength,
        presetName);
  }
}
