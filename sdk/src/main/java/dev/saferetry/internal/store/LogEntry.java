package dev.saferetry.internal.store;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;

/** One record of the intent log. Values are immutable and thread-safe. */
sealed interface LogEntry {

  /** The scope of the intent the entry is about. */
  IntentScope scope();

  /** The intent id the entry is about. */
  String intentId();

  /** A new pending intent: the full record, written and synced before the request is sent. */
  record Begin(IntentRecord record) implements LogEntry {
    @Override
    public IntentScope scope() {
      return record.scope();
    }

    @Override
    public String intentId() {
      return record.intentId();
    }
  }

  /** A definitive outcome for the intent whose begin record carries {@code key}. */
  record Complete(
      IntentScope scope,
      String intentId,
      IdempotencyKey key,
      IntentState state,
      int status,
      String resourceId)
      implements LogEntry {
    static Complete of(IntentRecord completed) {
      return new Complete(
          completed.scope(),
          completed.intentId(),
          completed.key(),
          completed.state(),
          completed.status(),
          completed.resourceId());
    }
  }

  /** The intent was forgotten on purpose. */
  record Abandon(IntentScope scope, String intentId) implements LogEntry {}
}
