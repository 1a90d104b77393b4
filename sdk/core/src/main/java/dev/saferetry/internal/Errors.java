package dev.saferetry.internal;

import dev.saferetry.Attempt;
import dev.saferetry.ResponseView;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;
import java.util.List;

/**
 * How the call machinery creates the exceptions of {@code dev.saferetry.error}, whose constructors
 * are package-private so that they are not API: that package installs its factory here once, when
 * {@link SafeRetryException} is initialised (the pattern of the JDK's shared secrets).
 */
public final class Errors {
  /** What every exception carries: the key, the intent id, the attempts and the last answer. */
  public record Trail(
      IdempotencyKey key, String intentId, List<Attempt> attempts, ResponseView response) {
    /** Copies the attempts. */
    public Trail {
      attempts = List.copyOf(attempts);
    }

    /** A trail without an answer. */
    public Trail(IdempotencyKey key, String intentId, List<Attempt> attempts) {
      this(key, intentId, attempts, null);
    }
  }

  /** The parsed parts of an error answer, already masked and capped. */
  public record ApiError(int status, String type, String code, String message, String body) {}

  /** Creates the exceptions; implemented in {@code dev.saferetry.error}. */
  public interface Factory {
    /** A FAILED call that is not an error answer. */
    CallFailedException failed(Reason reason, String message, Trail trail, Throwable cause);

    /** A definitive error answer. */
    ApiException rejected(boolean keyReused, ApiError error, Trail trail);

    /** An UNKNOWN outcome. */
    OutcomeUnknownException unknown(
        Reason reason, String message, Duration retryAfter, Trail trail, Throwable cause);

    /** A 2xx whose body could not be read. */
    ResponseBodyException unreadable(
        Reason reason, String message, int status, Trail trail, Throwable cause);
  }

  private static volatile Factory factory;

  private Errors() {}

  /**
   * Installs the factory; called once by {@code dev.saferetry.error}.
   *
   * @throws IllegalStateException if a factory is installed already
   */
  public static synchronized void install(Factory f) {
    if (factory != null) {
      throw new IllegalStateException("the exception factory is installed already");
    }
    factory = f;
  }

  static Factory factory() {
    Factory f = factory;
    if (f == null) {
      try {
        // Initialising the root exception installs the factory.
        Class.forName(SafeRetryException.class.getName(), true, Errors.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("the SDK's exceptions are missing", e);
      }
      f = factory;
    }
    return f;
  }
}
