package dev.saferetry.jdbc.outbox;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.StoredRequest;
import java.time.Instant;
import java.util.Objects;

/**
 * An outbox intent as the table holds it, read at one moment: queued for the relay, held (parked)
 * for a person, or ended — by its outcome, or abandoned by an operator. {@link JdbcOutbox#held()}
 * lists the held ones; {@link OutboxAdmin} lists and inspects any of them and acts on them. An
 * action names the intent as it was read, and applies only if the intent has not changed since
 * ({@link #version()}).
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param record the intent: pending while queued, and when held {@link HoldReason#EXPIRED}, {@link
 *     HoldReason#UNSETTLED} or {@link HoldReason#TOO_MANY_ATTEMPTS}; failed with the provider's
 *     status when held {@link HoldReason#REJECTED}; succeeded or failed once ended; as it was when
 *     abandoned (pending: its outcome is unknown) until it is reconciled
 * @param request the request that is to be sent, or {@code null} when the row's stored request
 *     cannot be read back as one (held as {@link HoldReason#TAMPERED}; the note says why)
 * @param reason why it is held (parked), or {@code null} when it is not held
 * @param note what the relay or an operator last noted about it (a status and error code, an
 *     operator's action; never a body), or {@code null}
 * @param attempts how many times it was claimed for sending since it was enqueued or requeued
 * @param orderingKey its ordering key (intents of one tenant and key are sent one at a time, in the
 *     order their transactions committed), or {@code null}
 * @param holdsKey whether, held, it keeps the later intents of its ordering key waiting (the
 *     default for a held intent with a key; {@link OutboxAdmin#releaseKey} lets them continue)
 * @param leaseOwner the relay that holds a lease on it, or {@code null}; the lease may have ended
 * @param leaseExpiresAt when that lease ends, by the database's clock, or {@code null}
 * @param dueAt when a relay may next claim it, by the database's clock, or {@code null}
 * @param version its version: it changes whenever the intent changes (a claim, an outcome, a hold,
 *     an operator's action)
 * @param abandoned whether an operator abandoned it ({@link OutboxAdmin#abandon}): it is never sent
 *     again under its intent id, and a call of it is refused, until an operator requeues it
 */
public record OutboxIntent(
    IntentRecord record,
    StoredRequest request,
    HoldReason reason,
    String note,
    int attempts,
    String orderingKey,
    boolean holdsKey,
    String leaseOwner,
    Instant leaseExpiresAt,
    Instant dueAt,
    long version,
    boolean abandoned) {

  /**
   * Validates the entry.
   *
   * @param record the intent
   * @param request the request that is to be sent, or {@code null} when it cannot be read back
   * @param reason why it is held (parked), or {@code null} when it is not held
   * @param note what the relay or an operator last noted about it, or {@code null}
   * @param attempts how many times it was claimed since it was enqueued or requeued
   * @param orderingKey its ordering key, or {@code null}
   * @param holdsKey whether, held, it keeps the later intents of its ordering key waiting
   * @param leaseOwner the relay that holds a lease on it, or {@code null}
   * @param leaseExpiresAt when that lease ends, by the database's clock, or {@code null}
   * @param dueAt when a relay may next claim it, by the database's clock, or {@code null}
   * @param version its version
   * @param abandoned whether an operator abandoned it
   * @throws IllegalArgumentException if {@code attempts} is negative, {@code holdsKey} is set on an
   *     intent that is not held or has no ordering key, or an abandoned intent is held
   */
  public OutboxIntent {
    Objects.requireNonNull(record, "record");
    if (attempts < 0) {
      throw new IllegalArgumentException("attempts must not be negative");
    }
    if (holdsKey && (reason == null || orderingKey == null)) {
      throw new IllegalArgumentException("only a held intent with an ordering key holds its key");
    }
    if (abandoned && reason != null) {
      throw new IllegalArgumentException("an abandoned intent is not held");
    }
  }

  /** {@return whether it is held (parked) for a person: {@link #reason()} is set} */
  public boolean isHeld() {
    return reason != null;
  }

  /** {@return whether it is queued for a relay: not held, not abandoned and still pending} */
  public boolean isQueued() {
    return reason == null && !abandoned && record.state() == IntentState.PENDING;
  }

  /**
   * {@return whether it ended: not held, and completed (succeeded or failed) or abandoned (then its
   * record may still be pending: its outcome is unknown)}
   */
  public boolean isEnded() {
    return reason == null && (abandoned || record.state() != IntentState.PENDING);
  }
}
