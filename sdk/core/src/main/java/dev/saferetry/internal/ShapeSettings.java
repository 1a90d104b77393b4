package dev.saferetry.internal;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.internal.codec.ErrorBodies;
import dev.saferetry.provider.ApiKeyStyle;
import dev.saferetry.provider.ErrorMatch;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The client builder's settings for the {@link ApiShape} it builds: codec, API key style, headers,
 * {@code User-Agent} and the provider's rules for reading answers (what a preset sets through the
 * builder), validated as they are set. Not thread-safe (a builder is not).
 */
public final class ShapeSettings {
  private BodyCodec bodyCodec;
  private ApiKeyStyle apiKeyStyle = ApiKeyStyle.bearer();
  private final Map<String, String> defaultHeaders = new LinkedHashMap<>();
  private final Set<String> identityHeaders = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
  private String userAgent = ApiShape.SDK_AGENT;
  private ReplayMarker replay = ResponseRules.COMMON.replay();
  private List<ErrorMatch> keyReused = ResponseRules.COMMON.keyReused();
  private List<ErrorMatch> inProgress = ResponseRules.COMMON.inProgress();
  private ExistingResource existing;
  private List<String> shouldRetryHeaders = ResponseRules.COMMON_SHOULD_RETRY;
  private List<ErrorMatch> retryable = List.of();
  private List<String> requestIdHeaders = List.of();
  private String errorRequestIdField;
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
    ResponseRules rules = shape.rules();
    replay = rules.replay();
    keyReused = rules.keyReused();
    inProgress = rules.inProgress();
    existing = rules.existing();
    shouldRetryHeaders = rules.shouldRetryHeaders();
    retryable = rules.retryable();
    requestIdHeaders = rules.requestIdHeaders();
    errorRequestIdField = rules.errorRequestIdField();
    keyMaxLength = shape.keyMaxLength();
    presetName = shape.presetName();
  }

  /** Names the preset the settings came from, for logs. */
  public void presetName(String name) {
    presetName = Objects.requireNonNull(name, "name");
  }

  /** Sets the replay marker, or none. */
  public void replayMarker(ReplayMarker marker) {
    replay = marker;
  }

  /** Sets how the provider says the key was used with another payload. */
  public void keyReused(ErrorMatch... matches) {
    keyReused = List.of(matches);
  }

  /** Sets how the provider says a request with the key is still running. */
  public void inProgress(ErrorMatch... matches) {
    inProgress = List.of(matches);
  }

  /** Sets the conflict that means "already created", or none. */
  public void existingResource(ExistingResource conflict) {
    existing = conflict;
  }

  /** Sets the headers whose true or false decides whether an error answer is retried. */
  public void shouldRetryHeaders(String... names) {
    for (String name : names) {
      ClientSettings.headerName("shouldRetryHeaders", Objects.requireNonNull(name, "name"));
    }
    shouldRetryHeaders = List.of(names);
  }

  /** Sets the error answers documented as safe to retry with the same key. */
  public void retryableErrors(ErrorMatch... matches) {
    retryable = List.of(matches);
  }

  /** Sets the headers carrying the provider's request id, in order of preference. */
  public void requestIdHeaders(String... names) {
    for (String name : names) {
      ClientSettings.headerName("requestIdHeaders", Objects.requireNonNull(name, "name"));
    }
    requestIdHeaders = List.of(names);
  }

  /** Sets the JSON pointer of the request id in an error body, or none. */
  public void errorRequestIdField(String pointer) {
    if (pointer != null) {
      ErrorBodies.checkPointer(pointer, false, "errorRequestIdField");
    }
    errorRequestIdField = pointer;
  }

  /** Sets the longest key the provider accepts, or 0 for no limit. */
  public void keyMaxLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("keyMaxLength must not be negative, was " + length);
    }
    keyMaxLength = length;
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
        new ResponseRules(
            replay,
            keyReused,
            inProgress,
            existing,
            shouldRetryHeaders,
            retryable,
            requestIdHeaders,
            errorRequestIdField),
        keyMaxLength,
        presetName);
  }
}
