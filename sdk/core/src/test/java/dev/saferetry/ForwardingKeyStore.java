package dev.saferetry;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A key store that forwards every call to another: tests override the one they break. */
class ForwardingKeyStore implements KeyStore {
  private final KeyStore inner;

  ForwardingKeyStore(KeyStore inner) {
    this.inner = inner;
  }

  @Override
  public BeginResult begin(IntentRecord candidate) {
    return inner.begin(candidate);
  }

  @Override
  public void complete(IntentRecord completed) {
    inner.complete(completed);
  }

  @Override
  public Optional<IntentRecord> find(IntentScope scope, String intentId) {
    return inner.find(scope, intentId);
  }

  @Override
  public List<IntentRecord> pending() {
    return inner.pending();
  }

  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    return inner.abandon(scope, intentId);
  }

  @Override
  public int purgeExpired(Instant now) {
    return inner.purgeExpired(now);
  }

  @Override
  public Instant expiryTime(Instant clock) {
    return inner.expiryTime(clock);
  }

  @Override
  public void close() {
    inner.close();
  }
}
