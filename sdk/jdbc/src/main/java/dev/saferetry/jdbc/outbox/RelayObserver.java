package dev.saferetry.jdbc.outbox;

import dev.saferetry.CallResult;
import dev.saferetry.error.SafeRetryException;

/**
 * What an {@link OutboxRelay} tells about its work, for {@link SafeRetryMeters}: plain JDK and
 * SafeRetry types only, so that a relay loads without Micrometer. Implementations must be
 * thread-safe and must not throw.
 */
interface RelayObserver {
  /** Observes nothing. */
  RelayObserver NONE = new RelayObserver() {};

  /**
   * A stored request was sent and the client answered: with {@code result}, or with {@code error}
   * (the other is null).
   */
  default void answered(CallResult<?> result, SafeRetryException error) {}

  /** A pass ended. */
  default void passed(RelayPass pass) {}

  /** The relay's thread ended other than by {@code stop()}, for {@code why}. */
  default void ended(Throwable why) {}

  /** The relay was closed: nothing more is observed. */
  default void closed() {}
}
