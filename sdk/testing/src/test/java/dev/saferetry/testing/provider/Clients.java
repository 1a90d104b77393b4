package dev.saferetry.testing.provider;

import dev.saferetry.ProviderPreset;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;

/** Real SafeRetry clients of a fake provider, with fake time: retries never wait. */
final class Clients {
  private Clients() {}

  /** A client of the provider's reference JSON API, retrying on fake time, breaker off. */
  static SafeRetryClientBuilder json(FakeProvider provider, FakeTime time) {
    return SafeRetryClient.builder()
        .baseUrl(provider.baseUrl())
        .apiKey("sk_test_fake")
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .breakerPolicy(BreakerPolicy.disabled());
  }

  /** A client with the Stripe preset. */
  static SafeRetryClientBuilder stripe(FakeProvider provider, FakeTime time) {
    return json(provider, time).preset(ProviderPreset.stripe()).apiKey("sk_test_fake");
  }
}
