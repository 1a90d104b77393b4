package dev.saferetry.idempotency;

import java.time.Duration;
import java.util.Objects;

/**
 * A call prepared for sending later, by {@code SafeRetryClient.prepare}: the pending intent to
 * record (a fresh or given key, the request's fingerprint) and the exact request to store with it.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param record the pending intent to record
 * @param request the exact request, with where the key goes and without any credential
 * @param deadline the call's deadline (its options', else the client's retry policy's): the longest
 *     recording it should wait
 */
public record StoredIntent(IntentRecord record, StoredRequest request, Duration deadline) {

  /**
   * Validates the prepared call.
   *
   * @param record the pending intent to record
   * @param request the exact request
   * @param deadline the call's deadline
   * @throws IllegalArgumentException if the record is not pending, or the request does not carry
   *     the record's key where its placement says
   */
  public StoredIntent {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(deadline, "deadline");
    if (record.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a prepared intent is pending");
    }
    request.checkKey(record.key());
  }
}
