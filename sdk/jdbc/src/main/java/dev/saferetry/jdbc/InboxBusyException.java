package dev.saferetry.jdbc;

/**
 * The message could not be received now because another transaction holds what it needs: another
 * delivery of the same message is still being handled (its receipt is not committed yet), or
 * another message about the same resource holds the resource's high-water mark. The database's lock
 * wait ran out (H2 {@code LOCK_TIMEOUT}, MariaDB {@code innodb_lock_wait_timeout}, PostgreSQL
 * {@code lock_timeout}), or the wait ended in a deadlock that retrying did not settle.
 *
 * <p>Nothing was recorded for this delivery, and whether the other one will commit is not known
 * yet: <b>do not acknowledge the message</b>. Ask for it again later — nack it with requeue, answer
 * a webhook {@code 503} (or {@code 409}) with {@code Retry-After} — and the redelivery is either a
 * {@link InboxOutcome#DUPLICATE} (the other delivery committed) or runs the handler (it rolled
 * back). It is never a reason to give the message up.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class InboxBusyException extends InboxException {
  private static final long serialVersionUID = 1L;

  InboxBusyException(String message, Throwable cause) {
    super(message, cause);
  }
}
