package dev.saferetry.idempotency;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link KeyStore} of {@link KeyStore#inMemory()}: a concurrent map keyed by scope and intent
 * id.
 *
 * <p>This class is thread-safe.
 */
final class InMemoryKeyStore implements KeyStore {
  private record Id(IntentScope scope, String intentId) {}

  private final ConcurrentMap<Id, IntentRecord> records = new ConcurrentHashMap<>();
  private final AtomicReference<Instant> latest = new AtomicReference<>(Instant.MIN);

  /** Creates an empty store. */
  InMemoryKeyStore() {}

  @Override
  public BeginResult begin(IntentRecord candidate) {
    if (candidate.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a candidate must be PENDING");
    }
    Id id = new Id(candidate.scope(), candidate.intentId());
    raise(candidate.createdAt());
    boolean[] created = new boolean[1]; // set only inside the atomic compute by the winning call
    IntentRecord stored =
        records.compute(
            id,
            (k, existing) -> {
              boolean replaceable =
                  existing == null
                      || (existing.isExpired(candidate.createdAt())
                          && existing.state() != IntentState.PENDING);
              created[0] = replaceable;
              return replaceable ? candidate : existing;
            });
    return created[0] ? BeginResult.created(stored) : BeginResult.existing(stored);
  }

  @Override
  public void complete(IntentRecord completed) {
    Id id = new Id(completed.scope(), completed.intentId());
    records.computeIfPresent(
        id, (k, existing) -> existing.key().equals(completed.key()) ? completed : existing);
  }

  @Override
  public Optional<IntentRecord> find(IntentScope scope, String intentId) {
    return Optional.ofNullable(records.get(new Id(scope, intentId)));
  }

  @Override
  public List<IntentRecord> pending() {
    List<IntentRecord> result = new ArrayList<>();
    for (IntentRecord r : records.values()) {
      if (r.state() == IntentState.PENDING) {
        result.add(r);
      }
    }
    result.sort(Comparator.comparing(IntentRecord::createdAt));
    return result;
  }

  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    return records.remove(new Id(scope, intentId)) != null;
  }

  @Override
  public int purgeExpired(Instant now) {
    int before = records.size();
    records.values().removeIf(r -> r.state() != IntentState.PENDING && r.isExpired(now));
    return before - records.size();
  }

  /**
   * Returns the later of {@code clock} and the latest creation time this store has recorded: the
   * clients sharing this store never judge expiry at a time before one of them recorded an intent.
   */
  @Override
  public Instant expiryTime(Instant clock) {
    return raise(clock);
  }

  private Instant raise(Instant time) {
    return latest.accumulateAndGet(time, (a, b) -> a.isAfter(b) ? a : b);
  }

  @Override
  public void close() {}
}
