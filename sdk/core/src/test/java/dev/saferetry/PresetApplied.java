package dev.saferetry;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/** What a preset sets on a client builder, read back from the client it builds. */
record PresetApplied(ClientConfig config) {

  static PresetApplied of(ProviderPreset preset) {
    try (SafeRetryClient c =
        SafeRetryClient.builder().baseUrl("https://api.example.test").preset(preset).build()) {
      return new PresetApplied(c.core().config());
    }
  }

  KeyPlacement keyPlacement() {
    return config.keyPlacement();
  }

  BodyCodec codec() {
    return config.codec();
  }

  ApiKeyStyle apiKeyStyle() {
    return config.apiKeyStyle();
  }

  Map<String, String> headers() {
    return config.headers();
  }

  Set<String> identityHeaders() {
    return config.identityHeaders();
  }

  List<String> requestIdHeaders() {
    return config.rules().requestIdHeaders();
  }

  Optional<String> errorRequestIdField() {
    return Optional.ofNullable(config.rules().errorRequestIdField());
  }

  Optional<ReplayMarker> replayMarker() {
    return Optional.ofNullable(config.rules().replay());
  }

  List<ErrorMatch> keyReused() {
    return config.rules().keyReused();
  }

  List<ErrorMatch> inProgress() {
    return config.rules().inProgress();
  }

  Optional<ExistingResource> existingResource() {
    return Optional.ofNullable(config.rules().existing());
  }

  List<String> shouldRetryHeaders() {
    return config.rules().shouldRetryHeaders();
  }

  List<ErrorMatch> retryableErrors() {
    return config.rules().retryable();
  }

  Duration intentRetention() {
    return config.intentRetention();
  }

  OptionalInt keyMaxLength() {
    int max = config.keyMaxLength();
    return max == 0 ? OptionalInt.empty() : OptionalInt.of(max);
  }
}
