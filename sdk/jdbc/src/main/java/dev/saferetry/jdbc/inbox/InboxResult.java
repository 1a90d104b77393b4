package dev.saferetry.jdbc.inbox;

/**
 * What {@link Inbox#receive} did with a message. Every result means the message is settled:
 * acknowledge it (answer 2xx, ack the broker) in all three cases.
 *
 * <p>Thread-safe (an enum).
 */
public enum InboxResult {
  /** First receipt: the handler ran and its work committed together with the receipt. */
  APPLIED,
  /** Already recorded by an earlier delivery: the handler did not run. */
  DUPLICATE,
  /**
   * First receipt, but older than what was already applied to its resource ({@link
   * InboxContext#advance} returned false): recorded so it is never considered again, not applied.
   */
  STALE
}
