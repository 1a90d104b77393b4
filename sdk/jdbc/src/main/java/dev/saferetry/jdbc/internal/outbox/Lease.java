package dev.saferetry.jdbc.internal.outbox;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import java.time.Instant;
import java.util.Objects;

/**
 * The right, for a limited time, to send one outbox intent and record its outcome: handed out by
 * {@code JdbcOutbox.claim} and checked by every call that changes the intent on its behalf.
 *
 * <p>The {@code token} is a fencing token: the stored intent's token changes whenever the intent
 * changes hands or state (a claim, a takeover after the lease expired, a completion from any path,
 * a reschedule, a hold). A call with a lease whose token no longer matches is refused, so an owner
 * that was paused past its lease cannot overwrite what the new owner recorded.
 *
 * <p>{@code expiresAt} is on the clock the lease was granted by: the database's for {@code
 * OutboxRelay} and the forms of {@code JdbcOutbox} that take no time. Compare it with that clock
 * only; an instance measures how much of its lease is left by the time elapsed since it was granted
 * (see {@code OutboxRelay}).
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param scope the intent's scope
 * @param intentId the intent's id
 * @param key the intent's key (a lease never applies to a later intent with the same id)
 * @param owner who holds the lease, as given to {@code JdbcOutbox.claim}
 * @param token the fencing token the stored intent had when this lease was granted
 * @param expiresAt when another owner may take the intent over, by the clock that granted it
 */
public record Lease(
    IntentScope scope,
    String intentId,
    IdempotencyKey key,
    String owner,
    long token,
    Instant expiresAt) {

  /**
   * Validates the lease.
   *
   * @param scope the intent's scope
   * @param intentId the intent's id
   * @param key the intent's key (a lease never applies to a later intent with the same id)
   * @param owner who holds the lease, as given to {@code JdbcOutbox.claim}
   * @param token the fencing token the stored intent had when this lease was granted
   * @param expiresAt when another owner may take the intent over, by the granting clock
   */
  public Lease {
    Objects.requireNonNull(scope, "scope");
    IntentRecord.checkIntentId(intentId);
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
