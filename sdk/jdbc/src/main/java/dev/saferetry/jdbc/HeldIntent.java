package dev.saferetry.jdbc;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.StoredRequest;
import java.util.Objects;

/**
 * An outbox intent the relay no longer works on because a person must decide what happens to it.
 * Once decided (reconciled with the provider, refunded, the order cancelled), remove it with {@link
 * JdbcKeyStore#abandon}.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param record the intent: still pending when {@link HoldReason#EXPIRED} or {@link
 *     HoldReason#UNSETTLED}, failed with the provider's status when {@link HoldReason#REJECTED}
 * @param request the request that was to be sent, or {@code null} when the row's stored request
 *     cannot be read back as one (held as {@link HoldReason#TAMPERED}; the note says why)
 * @param reason why it was held
 * @param note what the relay last noted about it (a status and error code, never a body), or {@code
 *     null}
 * @param attempts how many times it was claimed for sending
 */
public record HeldIntent(
    IntentRecord record, StoredRequest request, HoldReason reason, String note, int attempts) {

  /**
   * Validates the entry.
   *
   * @param record the intent: still pending when {@link HoldReason#EXPIRED} or {@link
   *     HoldReason#UNSETTLED}, failed with the provider's status when {@link HoldReason#REJECTED}
   * @param request the request that was to be sent, or {@code null} when the row's stored request
   *     cannot be read back as one
   * @param reason why it was held
   * @param note what the relay last noted about it (a status and error code, never a body), or
   *     {@code null}
   * @param attempts how many times it was claimed for sending
   */
  public HeldIntent {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(reason, "reason");
  }
}
