package dev.saferetry.provider;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** The values of a {@link ProviderPreset}, validated and copied once. */
record PresetValues(
    String name,
    KeyPlacement keyPlacement,
    BodyCodec bodyCodec,
    ApiKeyStyle apiKeyStyle,
    Map<String, String> defaultHeaders,
    String versionHeader,
    Set<String> identityHeaders,
    List<String> requestIdHeaders,
    String errorRequestIdField,
    ReplayMarker replayMarker,
    List<ErrorMatch> keyReused,
    List<ErrorMatch> inProgress,
    ExistingResource existingResource,
    RetryHints retryHints,
    Duration keyRetention,
    int keyMaxLength,
    List<URI> sources) {

  PresetValues {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    Objects.requireNonNull(keyPlacement, "keyPlacement");
    Objects.requireNonNull(bodyCodec, "bodyCodec");
    Objects.requireNonNull(apiKeyStyle, "apiKeyStyle");
    Objects.requireNonNull(retryHints, "retryHints");
    if (keyPlacement.inBody() && !bodyCodec.canAddTopLevelField()) {
      throw new IllegalArgumentException(
          "keyPlacement puts the key in the body, which bodyCodec cannot do");
    }
    defaultHeaders.forEach(
        (header, value) -> {
          Headers.checkName(header);
          Headers.checkValue(header, value);
        });
    defaultHeaders = Map.copyOf(defaultHeaders);
    if (versionHeader != null) {
      Headers.checkName(versionHeader);
    }
    identityHeaders.forEach(Headers::checkName);
    identityHeaders = Set.copyOf(identityHeaders);
    requestIdHeaders.forEach(Headers::checkName);
    requestIdHeaders = List.copyOf(requestIdHeaders);
    keyReused = List.copyOf(keyReused);
    inProgress = List.copyOf(inProgress);
    if (keyRetention != null && (keyRetention.isNegative() || keyRetention.isZero())) {
      throw new IllegalArgumentException("keyRetention must be positive");
    }
    if (keyMaxLength < 0) {
      throw new IllegalArgumentException("keyMaxLength must not be negative");
    }
    sources = List.copyOf(sources);
  }
}
