package dev.saferetry.jdbc.internal.outbox;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.StoredRequest;
import java.util.Objects;

/**
 * An outbox intent claimed for sending: what to send, with which key, under which lease.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param record the intent (pending), with the key to send
 * @param request the exact request to send
 * @param lease the lease to complete, reschedule or hold it with
 * @param attempts how many times it has been claimed, this claim included
 */
public record LeasedIntent(IntentRecord record, StoredRequest request, Lease lease, int attempts) {

  /**
   * Validates the claim.
   *
   * @param record the intent (pending), with the key to send
   * @param request the exact request to send
   * @param lease the lease to complete, reschedule or hold it with
   * @param attempts how many times it has been claimed, this claim included
   */
  public LeasedIntent {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(lease, "lease");
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be positive");
    }
  }
}
