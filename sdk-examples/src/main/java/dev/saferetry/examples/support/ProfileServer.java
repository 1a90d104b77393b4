package dev.saferetry.examples.support;

import dev.saferetry.conformance.server.ReferenceServer;

/**
 * The payment API {@code ProviderProfiles} runs against when none is given: a reference server
 * in-process, on a free loopback port, that reads the key where a provider profile puts it.
 * Plumbing, not an example to copy.
 *
 * <p>Thread-safe.
 */
public final class ProfileServer implements AutoCloseable {
  private final ReferenceServer server;

  private ProfileServer(ReferenceServer.Builder settings) {
    this.server = settings.build().start();
  }

  /** Starts one that reads the key from the header {@code name}, e.g. PayPal-Request-Id. */
  public static ProfileServer keyInHeader(String name) {
    return new ProfileServer(ReferenceServer.builder().keyHeader(name));
  }

  /** Starts one that reads the key from the JSON body's top-level field {@code name}. */
  public static ProfileServer keyInBodyField(String name) {
    return new ProfileServer(ReferenceServer.builder().keyBodyField(name));
  }

  /** Returns the base URL, without a trailing slash. */
  public String baseUrl() {
    return server.baseUrl();
  }

  @Override
  public void close() {
    server.close();
  }
}
