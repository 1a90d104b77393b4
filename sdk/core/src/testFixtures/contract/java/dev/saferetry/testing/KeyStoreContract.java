package dev.saferetry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link KeyStore} SPI contract. Every store the project ships runs these tests through a
 * subclass that says how to open a fresh, empty store and how to reopen it (a store that keeps
 * nothing across a reopen returns {@code null} from {@link #reopen}).
 *
 * <p>A store with its host's clock only judges time at the times its callers give, so these tests
 * move time by giving later times. A store with a clock of its own (a database's: {@link
 * #ownClock()}) records a candidate at that clock's time and judges at it; there the tests move
 * time by {@link #age aging} its records instead, and compare what is read back with the record as
 * {@link KeyStore#begin} returned it.
 */
public abstract class KeyStoreContract {
  /** A moment with a sub-microsecond part: a store must keep times exactly as given. */
  protected static final Instant T0 = Instant.parse("2026-01-01T10:00:00.123456789Z");

  protected static final Duration DAY = Duration.ofHours(24);
  protected static final IntentScope CHARGES = new IntentScope("default", "POST /v1/charges");
  protected static final IntentScope OTHER_TENANT = new IntentScope("acme", "POST /v1/charges");

  private KeyStore store;

  /** Opens a new, empty store. */
  protected abstract KeyStore open() throws Exception;

  /** Closes {@code current} and opens the same store again, or returns null if it keeps nothing. */
  protected abstract KeyStore reopen(KeyStore current) throws Exception;

  /** Whether the store keeps time by a clock of its own (a database's) rather than its callers'. */
  protected boolean ownClock() {
    return false;
  }

  /**
   * For a store with {@link #ownClock()}: makes every record of the store {@code d} older, as if
   * {@code d} had gone by on its clock.
   */
  protected void age(Duration d) throws Exception {
    throw new UnsupportedOperationException("a store with its callers' clock is not aged");
  }

  /**
   * Lets {@code d} go by from {@link #T0}: returns the time a caller then gives (T0 plus {@code
   * d}); for a store with a clock of its own, ages its records by {@code d} and returns a time far
   * ahead of its clock.
   */
  private Instant after(Duration d) throws Exception {
    if (ownClock()) {
      age(d);
      return FAR; // later than its clock: the caller's time does not hold the store back
    }
    return T0.plus(d);
  }

  /** A time far ahead of any store's clock, for a store with a clock of its own. */
  private static final Instant FAR = Instant.parse("2200-01-01T00:00:00Z");

  /**
   * Records {@code candidate} (it must be new) and returns it as recorded: the candidate itself,
   * or, for a store with a clock of its own, the candidate created at that clock's time with the
   * same retention.
   */
  protected final IntentRecord record(IntentRecord candidate) {
    return recordIn(store, candidate);
  }

  private IntentRecord recordIn(KeyStore in, IntentRecord candidate) {
    BeginResult result = in.begin(candidate);
    assertThat(result.created()).isTrue();
    IntentRecord recorded = result.record();
    if (!ownClock()) {
      assertThat(recorded).isEqualTo(candidate);
      return recorded;
    }
    assertThat(recorded)
        .usingRecursiveComparison()
        .ignoringFields("createdAt", "expiresAt")
        .isEqualTo(candidate);
    assertThat(Duration.between(recorded.createdAt(), recorded.expiresAt()))
        .isEqualTo(Duration.between(candidate.createdAt(), candidate.expiresAt()));
    return recorded;
  }

  @BeforeEach
  void openStore() throws Exception {
    store = open();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  protected static IntentRecord pending(IntentScope scope, String intentId, Instant created) {
    return IntentRecord.pending(
        scope, intentId, IdempotencyKey.random(), "fp-" + intentId, created, DAY);
  }

  private static IntentRecord pending(String intentId) {
    return pending(CHARGES, intentId, T0);
  }

  @Test
  void firstBeginCreatesTheCandidateAndReturnsItAsRecorded() {
    IntentRecord recorded = record(pending("order-1"));
    assertThat(store.find(CHARGES, "order-1")).contains(recorded);
  }

  @Test
  void secondBeginReturnsTheRecordedKeyAndDoesNotCreate() {
    IntentRecord first = pending("order-1");
    store.begin(first);
    BeginResult again = store.begin(pending("order-1"));
    assertThat(again.created()).isFalse();
    assertThat(again.record().key()).isEqualTo(first.key());
  }

  @Test
  void aBeginThatFindsAnEqualRecordStillReportsNotCreated() {
    IntentRecord first = pending("order-1");
    store.begin(first);
    // The very same record again: equality must not be mistaken for "created".
    assertThat(store.begin(first).created()).isFalse();
  }

  @Test
  void scopesSeparateIntentsWithTheSameId() {
    IntentRecord ours = pending(CHARGES, "order-1", T0);
    IntentRecord theirs = pending(OTHER_TENANT, "order-1", T0);
    assertThat(store.begin(ours).created()).isTrue();
    assertThat(store.begin(theirs).created()).isTrue();
    assertThat(store.find(OTHER_TENANT, "order-1").orElseThrow().key()).isEqualTo(theirs.key());
  }

  @Test
  void completeWithTheRecordedKeyMovesTheIntentOutOfPending() {
    IntentRecord first = record(pending("order-1"));
    IntentRecord other = record(pending("order-2"));
    store.complete(first.complete(IntentState.SUCCEEDED, 201, "ch_1"));
    IntentRecord found = store.find(CHARGES, "order-1").orElseThrow();
    assertThat(found.state()).isEqualTo(IntentState.SUCCEEDED);
    assertThat(found.status()).isEqualTo(201);
    assertThat(found.resourceId()).isEqualTo("ch_1");
    assertThat(store.pending()).containsExactly(other);
  }

  @Test
  void completeWithAnotherKeyChangesNothing() {
    IntentRecord first = record(pending("order-1"));
    IntentRecord stranger = pending("order-1");
    store.complete(stranger.complete(IntentState.FAILED, 400, null));
    assertThat(store.find(CHARGES, "order-1")).contains(first);
  }

  @Test
  void anExpiredCompletedIntentIsReplacedButAnExpiredPendingOneIsNot() throws Exception {
    IntentRecord done = pending("done");
    IntentRecord open = pending("open");
    store.begin(done);
    store.begin(open);
    store.complete(done.complete(IntentState.SUCCEEDED, 200, null));
    Instant later = after(DAY.plusSeconds(1));
    BeginResult renewed = store.begin(pending(CHARGES, "done", later));
    assertThat(renewed.created()).isTrue();
    assertThat(renewed.record().key()).isNotEqualTo(done.key());
    BeginResult stale = store.begin(pending(CHARGES, "open", later));
    assertThat(stale.created()).isFalse();
    assertThat(stale.record().key()).isEqualTo(open.key());
  }

  @Test
  void pendingListsOldestFirst() {
    IntentRecord late = record(pending(CHARGES, "late", T0.plusSeconds(10)));
    IntentRecord early = record(pending(CHARGES, "early", T0));
    // By creation time: the callers' (early first), or the store's own clock's (late first).
    List<IntentRecord> oldestFirst =
        late.createdAt().isBefore(early.createdAt()) ? List.of(late, early) : List.of(early, late);
    assertThat(store.pending()).containsExactlyElementsOf(oldestFirst);
    assertThat(oldestFirst.get(0)).isEqualTo(ownClock() ? late : early);
  }

  @Test
  void abandonForgetsTheIntentSoTheNextBeginMintsAgain() {
    IntentRecord first = pending("order-1");
    store.begin(first);
    assertThat(store.abandon(CHARGES, "order-1")).isTrue();
    assertThat(store.abandon(CHARGES, "order-1")).isFalse();
    BeginResult again = store.begin(pending("order-1"));
    assertThat(again.created()).isTrue();
    assertThat(again.record().key()).isNotEqualTo(first.key());
  }

  @Test
  void purgeDropsOnlyExpiredCompletedRecords() throws Exception {
    IntentRecord done = record(pending("done"));
    IntentRecord open = record(pending("open"));
    store.complete(done.complete(IntentState.SUCCEEDED, 200, null));
    Instant later = after(DAY.plusSeconds(1));
    if (ownClock()) {
      open = store.find(CHARGES, "open").orElseThrow(); // aged with the rest
    }
    assertThat(store.purgeExpired(later)).isEqualTo(1);
    assertThat(store.find(CHARGES, "done")).isEmpty();
    assertThat(store.find(CHARGES, "open")).contains(open);
  }

  @Test
  void aCandidateThatIsNotPendingIsRefused() {
    IntentRecord done = pending("order-1").complete(IntentState.SUCCEEDED, 200, null);
    assertThatThrownBy(() -> store.begin(done)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrentBeginsOfOneIntentCreateExactlyOnce() throws Exception {
    int threads = 16;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<BeginResult>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return store.begin(pending("raced"));
                }));
      }
      List<BeginResult> done = new ArrayList<>();
      for (Future<BeginResult> f : results) {
        done.add(f.get());
      }
      assertThat(done.stream().filter(BeginResult::created).count()).isEqualTo(1);
      Set<IdempotencyKey> keys =
          done.stream().map(r -> r.record().key()).collect(Collectors.toSet());
      assertThat(keys).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void pendingListsTheIntentsOfEveryTenant() {
    IntentRecord ours = record(pending(CHARGES, "order-1", T0));
    IntentRecord theirs = record(pending(OTHER_TENANT, "order-1", T0.plusSeconds(1)));
    assertThat(store.pending()).containsExactly(ours, theirs);
  }

  @Test
  void abandoningAnUnknownIntentRemovesNothing() {
    IntentRecord kept = record(pending("order-1"));
    assertThat(store.abandon(CHARGES, "order-2")).isFalse();
    assertThat(store.abandon(OTHER_TENANT, "order-1")).isFalse();
    assertThat(store.pending()).containsExactly(kept);
  }

  @Test
  void textIsKeptExactlyIncludingCharactersOutsideTheBasicPlane() throws Exception {
    // a smiley (a surrogate pair), a combining accent, right-to-left and CJK text
    IntentScope scope = new IntentScope("t\u00e9nant-\uD83D\uDE00", "POST /v1/\u4e2d\u6587");
    String id = "order-\uD83D\uDE00-e\u0301-\u05e9\u05dc\u05d5\u05dd";
    IntentRecord open = record(pending(scope, id, T0));
    IntentRecord done = record(pending(scope, id + "-done", T0));
    IntentRecord completed =
        done.complete(IntentState.SUCCEEDED, 201, "r\u00e9source-\uD83D\uDE01");
    store.complete(completed);
    KeyStore reopened = reopen(store);
    if (reopened == null) {
      store = open(); // keeps nothing across a reopen: check the live store instead
      open = record(pending(scope, id, T0));
      done = record(pending(scope, id + "-done", T0));
      completed = done.complete(IntentState.SUCCEEDED, 201, "r\u00e9source-\uD83D\uDE01");
      store.complete(completed);
    } else {
      store = reopened;
    }
    assertThat(store.find(scope, id)).contains(open);
    assertThat(store.find(scope, id + "-done")).contains(completed);
  }

  @Test
  void recordsSurviveAReopenWithEveryFieldExact() throws Exception {
    IntentRecord open = record(pending(CHARGES, "open", T0));
    IntentRecord done = record(pending(OTHER_TENANT, "done", T0.plusNanos(1)));
    IntentRecord completed = done.complete(IntentState.FAILED, 402, null);
    store.complete(completed);
    KeyStore reopened = reopen(store);
    if (reopened == null) {
      store = null;
      return; // a store that keeps nothing across a restart
    }
    store = reopened;
    assertThat(store.pending()).containsExactly(open);
    assertThat(store.find(OTHER_TENANT, "done")).contains(completed);
    assertThat(store.begin(pending("open")).created()).isFalse();
  }

  /** An hour after {@link #T0}: a clock stepped back to it sees an intent of T0 as fresh. */
  private static final Instant STEPPED_BACK = T0.plusSeconds(3600);

  @Test
  void aClockSteppedBackAfterAReopenStillJudgesAnExpiredPendingIntentExpired() throws Exception {
    if (ownClock()) {
      store.begin(pending(CHARGES, "order-1", T0));
      age(DAY.plusSeconds(3600)); // past order-1's expiry by the store's clock
      KeyStore reopened = reopen(store);
      store = reopened == null ? store : reopened;
      Instant judged = store.expiryTime(STEPPED_BACK);
      assertThat(judged).isAfter(STEPPED_BACK); // its own clock, not the caller's
      assertThat(store.find(CHARGES, "order-1").orElseThrow().isExpired(judged)).isTrue();
      return;
    }
    Instant later = T0.plus(DAY).plusSeconds(3600); // past order-1's expiry
    store.begin(pending(CHARGES, "order-1", T0));
    store.begin(pending(CHARGES, "order-2", later));
    KeyStore reopened = reopen(store);
    if (reopened == null) {
      store = open(); // keeps nothing across a reopen: check the floor of the live store instead
      store.begin(pending(CHARGES, "order-1", T0));
      store.begin(pending(CHARGES, "order-2", later));
    } else {
      store = reopened;
    }
    Instant judged = store.expiryTime(STEPPED_BACK);
    assertThat(judged).isAfterOrEqualTo(later);
    assertThat(store.find(CHARGES, "order-1").orElseThrow().isExpired(judged)).isTrue();
  }

  @Test
  void theTimeFloorSurvivesAPurgeThatDroppedTheLatestRecordAndAReopen() throws Exception {
    if (ownClock()) {
      return; // no floor: the store's own clock never runs back with a caller's
    }
    Instant later = T0.plus(DAY).plusSeconds(3600);
    store.begin(pending(CHARGES, "order-1", T0));
    IntentRecord done = pending(CHARGES, "order-2", later);
    store.begin(done);
    store.complete(done.complete(IntentState.SUCCEEDED, 201, null));
    assertThat(store.purgeExpired(later.plus(DAY).plus(DAY))).isEqualTo(1);
    KeyStore reopened = reopen(store);
    if (reopened == null) {
      store = null;
      return; // a store that keeps nothing across a restart
    }
    store = reopened;
    assertThat(store.find(CHARGES, "order-2")).isEmpty();
    assertThat(store.expiryTime(STEPPED_BACK)).isAfterOrEqualTo(later);
  }

  @Test
  void expiryIsNeverJudgedBeforeTheCallersClockUnlessTheStoreHasItsOwn() {
    IntentRecord recorded = record(pending("order-1"));
    Instant ahead = T0.plus(Duration.ofDays(3650));
    Instant behind = T0.minus(Duration.ofDays(3650));
    if (!ownClock()) {
      assertThat(store.expiryTime(ahead)).isEqualTo(ahead);
      return;
    }
    // Its own clock, whichever way the caller's is off: neither refuses a fresh intent nor re-sends
    // an expired one.
    Instant judgedAhead = store.expiryTime(ahead);
    Instant judgedBehind = store.expiryTime(behind);
    assertThat(judgedAhead).isBefore(ahead).isAfterOrEqualTo(recorded.createdAt());
    assertThat(judgedBehind).isAfter(behind).isAfterOrEqualTo(recorded.createdAt());
    assertThat(recorded.isExpired(judgedAhead)).isFalse();
  }
}
