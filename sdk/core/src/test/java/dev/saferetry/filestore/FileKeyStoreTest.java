package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.DAY;
import static dev.saferetry.filestore.Intents.REFUNDS;
import static dev.saferetry.filestore.Intents.T0;
import static dev.saferetry.filestore.Intents.pending;
import static dev.saferetry.filestore.Intents.succeeded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileKeyStoreTest {
  @TempDir Path dir;

  @Test
  void pendingIntentSurvivesReopenWithAllItsFields() {
    IntentRecord first = pending(CHARGES, "order-1/charge", T0);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.begin(first).record()).isEqualTo(first);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).containsExactly(first);
      assertThat(store.find(CHARGES, "order-1/charge")).contains(first);
    }
  }

  @Test
  void secondBeginOfTheSameIntentReturnsTheRecordedKeyEvenAfterReopen() {
    IntentRecord first = pending("order-1/charge");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(first);
      assertThat(store.begin(pending("order-1/charge")).record().key()).isEqualTo(first.key());
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.begin(pending("order-1/charge")).record().key()).isEqualTo(first.key());
    }
  }

  @Test
  void completionSurvivesReopenAndRemovesTheIntentFromPending() {
    IntentRecord first = pending("order-1/charge");
    IntentRecord other = pending("order-2/charge");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(first);
      store.begin(other);
      store.complete(succeeded(first, "ch_1"));
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      IntentRecord found = store.find(CHARGES, "order-1/charge").orElseThrow();
      assertThat(found.state()).isEqualTo(IntentState.SUCCEEDED);
      assertThat(found.status()).isEqualTo(201);
      assertThat(found.resourceId()).isEqualTo("ch_1");
      assertThat(found.key()).isEqualTo(first.key());
      assertThat(store.pending()).containsExactly(other);
    }
  }

  @Test
  void completionWithAnotherKeyIsIgnored() {
    IntentRecord first = pending("order-1/charge");
    IntentRecord impostor = succeeded(pending("order-1/charge"), "ch_x");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(first);
      store.complete(impostor);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1/charge")).contains(first);
    }
  }

  @Test
  void abandonedIntentIsGoneAfterReopenAndGetsANewKey() {
    IntentRecord first = pending("order-1/charge");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(first);
      assertThat(store.abandon(CHARGES, "order-1/charge")).isTrue();
      assertThat(store.abandon(CHARGES, "order-1/charge")).isFalse();
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1/charge")).isEmpty();
      assertThat(store.pending()).isEmpty();
      IntentRecord again = pending("order-1/charge");
      assertThat(store.begin(again).record().key())
          .isEqualTo(again.key())
          .isNotEqualTo(first.key());
    }
  }

  @Test
  void sameIntentIdInAnotherScopeIsAnotherIntent() {
    IntentRecord charge = pending(CHARGES, "order-1", T0);
    IntentRecord refund = pending(REFUNDS, "order-1", T0);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(charge);
      assertThat(store.begin(refund).record()).isEqualTo(refund);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1")).contains(charge);
      assertThat(store.find(REFUNDS, "order-1")).contains(refund);
    }
  }

  @Test
  void pendingListsOldestFirst() {
    IntentRecord late = pending(CHARGES, "b", T0.plusSeconds(60));
    IntentRecord early = pending(CHARGES, "a", T0);
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(late);
      store.begin(early);
      assertThat(store.pending()).containsExactly(early, late);
    }
  }

  @Test
  void expiredCompletedIntentIsTreatedAsNew() {
    IntentRecord old = pending("order-1/charge");
    IntentRecord later = pending(CHARGES, "order-1/charge", T0.plus(DAY));
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(old);
      store.complete(succeeded(old, "ch_1"));
      assertThat(store.begin(later).record()).isEqualTo(later);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1/charge")).contains(later);
    }
  }

  @Test
  void expiredPendingIntentIsReturnedUnchangedSoTheClientCanRefuseIt() {
    IntentRecord old = pending("order-1/charge");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(old);
      IntentRecord got = store.begin(pending(CHARGES, "order-1/charge", T0.plus(DAY))).record();
      assertThat(got).isEqualTo(old);
      assertThat(got.isExpired(T0.plus(DAY))).isTrue();
    }
  }

  @Test
  void completedIntentWithinRetentionKeepsItsKey() {
    IntentRecord first = pending("order-1/charge");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(first);
      store.complete(succeeded(first, "ch_1"));
      IntentRecord again =
          store.begin(pending(CHARGES, "order-1/charge", T0.plusSeconds(5))).record();
      assertThat(again.key()).isEqualTo(first.key());
      assertThat(again.state()).isEqualTo(IntentState.SUCCEEDED);
    }
  }

  @Test
  void closedStoreRefusesCallsAndCloseIsIdempotent() {
    FileKeyStore store = FileKeyStore.open(dir);
    store.close();
    store.close();
    assertThatThrownBy(() -> store.begin(pending("x")).record())
        .isInstanceOf(KeyStoreException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void candidateMustBePendingAndCompletionMustNot() {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      IntentRecord first = pending("x");
      assertThatThrownBy(() -> store.begin(succeeded(first, null)).record())
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.complete(first)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void figuresCountIntentsRecordsSyncsAndCompactions() throws Exception {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      IntentRecord first = pending("order-1");
      store.begin(first);
      store.begin(pending("order-2"));
      store.begin(pending("order-3"));
      store.complete(succeeded(first, "ch_1"));
      store.abandon(CHARGES, "order-2");

      assertThat(store.intentCount()).isEqualTo(2);
      assertThat(store.pendingCount()).isEqualTo(1);
      assertThat(store.appendCount()).isEqualTo(5);
      assertThat(store.syncCount()).isEqualTo(4); // each begin and the abandon, one at a time
      assertThat(store.compactionCount()).isZero();
      long logBytes = store.logBytes();
      assertThat(logBytes).isEqualTo(StoreFileBytes.recordsEnd(dir));
      assertThat(store.liveBytes()).isPositive().isLessThan(logBytes);

      store.purgeExpired(T0);
      assertThat(store.compactionCount()).isEqualTo(1);
      assertThat(store.logBytes()).isLessThan(logBytes);
    }
  }

  @Test
  void openRejectsANegativeGroupCommitWindow() {
    assertThatThrownBy(() -> FileKeyStore.open(dir, java.time.Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("groupCommitWindow");
  }
}
