package dev.saferetry.filestore;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import java.time.Duration;
import java.time.Instant;

/** Builds the records the store tests use. */
final class Intents {
  static final IntentScope CHARGES = new IntentScope("default", "POST /v1/charges");
  static final IntentScope REFUNDS = new IntentScope("acme", "POST /v1/refunds");
  static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
  static final Duration DAY = Duration.ofHours(24);

  private Intents() {}

  static IntentRecord pending(String intentId) {
    return pending(CHARGES, intentId, T0);
  }

  static IntentRecord pending(IntentScope scope, String intentId, Instant created) {
    return IntentRecord.pending(
        scope, intentId, IdempotencyKey.random(), "fp-" + intentId, created, DAY);
  }

  static IntentRecord succeeded(IntentRecord pending, String resourceId) {
    return pending.complete(IntentState.SUCCEEDED, 201, resourceId);
  }
}
