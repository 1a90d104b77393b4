package dev.saferetry.benchmarks;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** Intent records as the client writes them, for the key store benchmarks. Thread-safe. */
final class Intents {
  static final IntentScope SCOPE = new IntentScope("bench", "POST /v1/charges");
  private static final AtomicLong IDS = new AtomicLong();

  private Intents() {}

  /** A pending intent: UUID key, SHA-256 fingerprint, a day's retention. */
  static IntentRecord candidate(Instant created) {
    String id = "order-" + IDS.incrementAndGet() + "/charge";
    return IntentRecord.pending(
        SCOPE, id, IdempotencyKey.random(), hex(32), created, Duration.ofHours(24));
  }

  /** Begins and completes one new intent: the store's work per charge. */
  static void beginAndComplete(KeyStore store) {
    IntentRecord begun = store.begin(candidate(Instant.now())).record();
    store.complete(begun.complete(IntentState.SUCCEEDED, 201, resourceId()));
  }

  /** A resource id of Stripe's shape. */
  static String resourceId() {
    return "ch_3" + hex(12).substring(0, 23);
  }

  private static String hex(int bytes) {
    byte[] random = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(random);
    StringBuilder out = new StringBuilder();
    for (byte b : random) {
      out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return out.toString();
  }
}
