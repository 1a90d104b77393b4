package dev.saferetry.resilience;

/**
 * What a {@link RetryClassifier} decides about one attempt.
 *
 * <p>Immutable and thread-safe.
 */
public enum Verdict {
  /** The operation succeeded; stop and return the result. */
  SUCCEEDED,
  /** The attempt may be repeated with the same key; retry if policy, budget and deadline allow. */
  RETRY,
  /** A definitive answer: retrying cannot help; stop and report it. */
  FAIL
}
