package dev.saferetry.testing.provider;

import java.time.Clock;
import java.util.List;

final class StripeApi {
  StripeApi(Clock clock) {}

  List<Route> routes() {
    return List.of();
  }

  void reset() {}
}
