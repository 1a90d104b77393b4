package dev.saferetry.jdbc.outbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.CallResult;
import dev.saferetry.error.SafeRetryException;

/**
 * What became of a stored request the relay handed to its client: answered, failed after the
 * client's attempts, or refused before anything was sent.
 */
sealed interface Sending {
  /** The client's call ended with an answer. */
  record Answered(CallResult<JsonNode> result) implements Sending {}

  /** The client's call ended without one (outcome unknown, breaker open, rejected, ...). */
  record Failed(SafeRetryException error) implements Sending {}

  /**
   * The client refused the stored request before its first attempt, so nothing was sent: its target
   * would leave the client's base URL, or a stored header is one the client sets itself. The relay
   * holds the intent as {@link HoldReason#UNSENDABLE}.
   *
   * @param why the client's reason, as its message says it (never a body or a credential)
   */
  record Refused(String why) implements Sending {}
}
