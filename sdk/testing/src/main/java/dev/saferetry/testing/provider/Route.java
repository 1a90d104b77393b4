package dev.saferetry.testing.provider;

/** One endpoint: its operation pattern and what it does. Immutable and thread-safe. */
record Route(OperationPattern pattern, Endpoint endpoint) {

  /** An endpoint's work. Implementations are thread-safe. */
  @FunctionalInterface
  interface Endpoint {
    Answer handle(ApiRequest request) throws Refused;
  }

  static Route of(String operation, Endpoint endpoint) {
    return new Route(OperationPattern.parse(operation), endpoint);
  }

  String operation() {
    return pattern.text();
  }
}
