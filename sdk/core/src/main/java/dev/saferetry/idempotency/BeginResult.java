package dev.saferetry.idempotency;

import java.util.Objects;

/**
 * The answer of {@link KeyStore#begin}: the intent's record, and whether this very call created it.
 *
 * <p>{@code created} is decided by the store at the moment it records the candidate, not by
 * comparing records afterwards, so a store that does not round-trip every field exactly (a database
 * column with microsecond precision, say) still reports it truthfully.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param record the stored record: the candidate when {@code created}, otherwise the existing one
 * @param created whether the store recorded the caller's candidate in this call
 */
public record BeginResult(IntentRecord record, boolean created) {

  /**
   * Validates the result.
   *
   * @param record the stored record: the candidate when {@code created}, otherwise the existing one
   * @param created whether the store recorded the caller's candidate in this call
   */
  public BeginResult {
    Objects.requireNonNull(record, "record");
  }

  /**
   * {@return the result of a call that recorded {@code record}}
   *
   * @param record the stored record: the candidate when {@code created}, otherwise the existing one
   */
  public static BeginResult created(IntentRecord record) {
    return new BeginResult(record, true);
  }

  /**
   * {@return the result of a call that found {@code record} already stored}
   *
   * @param record the stored record: the candidate when {@code created}, otherwise the existing one
   */
  public static BeginResult existing(IntentRecord record) {
    return new BeginResult(record, false);
  }
}
