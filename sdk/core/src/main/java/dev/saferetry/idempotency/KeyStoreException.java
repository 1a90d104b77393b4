package dev.saferetry.idempotency;

/**
 * A {@link KeyStore} could not read or durably write its data: a corrupt or truncated file, an
 * unknown format version, a missing or read-only directory, or a store already locked by another
 * process. The message names the file and, for corruption, the byte offset; it never contains
 * stored keys' payloads.
 *
 * <p>Nothing the store could not understand is dropped or rewritten: fixing the cause (or moving
 * the file aside) and reopening is always safe.
 *
 * <p>Instances are immutable and thread-safe.
 */
public class KeyStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message safe to log.
   *
   * @param message the message
   */
  public KeyStoreException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message safe to log and its cause.
   *
   * @param message the message
   * @param cause the cause
   */
  public KeyStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
