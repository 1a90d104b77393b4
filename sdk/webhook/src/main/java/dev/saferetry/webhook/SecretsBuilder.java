package dev.saferetry.webhook;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The settings the verifiers' builders share: the secrets (one, or several during a rotation) and,
 * for schemes that sign a timestamp, the tolerance and the clock. Not thread-safe.
 *
 * @param <B> the concrete builder, returned by every setter
 */
abstract class SecretsBuilder<B extends SecretsBuilder<B>> {
  private List<String> secrets;

  SecretsBuilder() {}

  abstract B self();

  /**
   * Sets the one signing secret. Required (or {@code secrets(...)}), no default; never shown in
   * messages or {@code toString()}.
   *
   * @param secret the secret
   * @return this builder
   */
  public B secret(String secret) {
    return secrets(List.of(Objects.requireNonNull(secret, "secret")));
  }

  /**
   * Sets every currently valid signing secret, for a rotation: a delivery signed with any of them
   * is accepted. Required (or {@link #secret}), no default; 1 to 16 secrets.
   *
   * @param secrets the secrets
   * @return this builder
   */
  public B secrets(List<String> secrets) {
    this.secrets = new ArrayList<>(Objects.requireNonNull(secrets, "secrets"));
    return self();
  }

  /** Returns the secrets; fails if none were set. */
  List<String> requiredSecrets() {
    return Objects.requireNonNull(secrets, "secret");
  }

  /** Adds the timestamp settings. */
  abstract static class Timed<B extends Timed<B>> extends SecretsBuilder<B> {
    private Duration tolerance = Freshness.DEFAULT_TOLERANCE;
    private Clock clock = Clock.systemUTC();

    Timed() {}

    /**
     * Sets how far the signed time may be from the clock, either way. Default 5 minutes.
     *
     * @param tolerance the tolerance: positive and at most 1 day (a wider window would only let a
     *     captured delivery be replayed for longer)
     * @return this builder
     * @throws IllegalArgumentException if the tolerance is zero, negative or longer than 1 day
     */
    public B tolerance(Duration tolerance) {
      this.tolerance = Freshness.checkTolerance(tolerance);
      return self();
    }

    /**
     * Sets the clock timestamps are checked against. Default {@link Clock#systemUTC()}.
     *
     * @param clock the clock
     * @return this builder
     */
    public B clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return self();
    }

    Freshness freshness() {
      return new Freshness(tolerance, clock);
    }
  }
}
