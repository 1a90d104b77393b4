package dev.saferetry.jdbc;

import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.internal.AdminTable;
import dev.saferetry.jdbc.internal.StoredText;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The actions of an {@link OutboxAdmin}: each checks the intents it is given against the rows as
 * they are now, under their row locks, applies its change and records it in the audit, all in one
 * transaction (see {@link OutboxAdmin} for the rules).
 *
 * <p>Immutable and thread-safe.
 */
final class AdminActions {
  private static final int MAX_ACTION_ID = 128;
  private static final int MAX_REASON = 1000;
  private static final int MAX_NOTE = 1000;
  static final int QUEUED = 0;
  static final int ENDED = 1;
  static final int HELD = 2;

  enum Action {
    REQUEUE("requeued"),
    ABANDON("abandoned"),
    RELEASE_KEY("let its ordering key continue"),
    REQUEUE_WITH_NEW_KEY("requeued with a new key");

    final String done;

    Action(String done) {
      this.done = done;
    }
  }

  private final JdbcKeyStore store;
  private final AdminTable table;
  private final String actor;

  AdminActions(JdbcKeyStore store, AdminTable table, String actor) {
    this.store = store;
    this.table = table;
    this.actor = actor;
  }

  List<OutboxIntent> act(
      Action action,
      List<OutboxIntent> intents,
      String actionId,
      String why,
      SafeRetryClient client,
      Reconciler reconciler) {
    List<OutboxIntent> seen = checkIntents(intents);
    String id = checkText("actionId", actionId, MAX_ACTION_ID);
    String reason = checkText("why", why, MAX_REASON);
    if (client != null) {
      for (OutboxIntent s : seen) {
        if (!s.record().scope().tenant().equals(client.tenant())) {
          throw new IllegalArgumentException(
              "client works for another tenant than intent " + name(s.record()));
        }
      }
      reconcileFirst(seen, id, client, reconciler);
    }
    List<OutboxIntent> sorted = new ArrayList<>(seen);
    sorted.sort(ORDER);
    Map<Pk, OutboxIntent> after =
        store
            .open()
            .transaction(
                "outbox admin " + action.name().toLowerCase(java.util.Locale.ROOT),
                c -> inTransaction(c, action, sorted, id, reason));
    return seen.stream().map(s -> after.get(Pk.of(s.record()))).toList();
  }

  private Map<Pk, OutboxIntent> inTransaction(
      Connection c, Action action, List<OutboxIntent> sorted, String actionId, String why)
      throws SQLException {
    List<AdminTable.Row> locked = new ArrayList<>();
    for (OutboxIntent s : sorted) {
      IntentRecord r = s.record();
      locked.add(table.lock(c, r.scope(), r.intentId()).orElse(null));
    }
    Instant now = store.databaseClock(c);
    for (int i = 0; i < sorted.size(); i++) {
      OutboxIntent s = sorted.get(i);
      AdminTable.Row row = locked.get(i);
      IntentRecord r = s.record();
      Optional<AdminTable.Recorded> done = table.recorded(c, actionId, r.scope(), r.intentId());
      if (done.isPresent()) {
        if (!done.get().action().equals(action.name())) {
          throw new IllegalArgumentException(
              "action id "
                  + StoredText.printable(actionId)
                  + " was already used for "
                  + done.get().action()
                  + " of intent "
                  + name(r)
                  + ": use a new action id");
        }
        continue; // done before under this action id: nothing more
      }
      apply(c, action, s, row, actionId, why, now);
    }
    Map<Pk, OutboxIntent> out = new HashMap<>();
    for (OutboxIntent s : sorted) {
      IntentRecord r = s.record();
      AdminTable.Row row =
          table
              .find(c, r.scope(), r.intentId())
              .orElseThrow(() -> gone(r)); // an action never deletes
      out.put(Pk.of(r), OutboxAdmin.intent(row));
    }
    return out;
  }

  private void apply(
      Connection c,
      Action action,
      OutboxIntent seen,
      AdminTable.Row row,
      String actionId,
      String why,
      Instant now)
      throws SQLException {
    IntentRecord r = seen.record();
    if (row == null) {
      throw gone(r);
    }
    if (!OutboxAdmin.intent(row).equals(seen)) {
      throw new ConcurrentModificationException(
          "intent "
              + name(r)
              + " was changed by someone else since it was read (it is now "
              + AdminTable.state(row)
              + "): read it again and decide again");
    }
    String note = note(action.done + " by " + actor + ": " + why);
    String newKey = null;
    boolean applied;
    switch (action) {
      case REQUEUE -> {
        requireHeld(row, action);
        if (row.record().isExpired(now)) {
          throw new IllegalStateException(
              "intent "
                  + name(r)
                  + " is past its key's retention: re-sending its key could charge twice once the"
                  + " provider forgot it; reconcile it and requeue it with a new key");
        }
        applied = table.requeue(c, row, now, note);
      }
      case ABANDON -> {
        if (row.relayState() == ENDED) {
          throw new IllegalStateException("intent " + name(r) + " already ended");
        }
        if (row.relayState() == QUEUED
            && row.leaseExpiresAt() != null
            && row.leaseExpiresAt().isAfter(now)) {
          throw new IllegalStateException(
              "intent "
                  + name(r)
                  + " is being sent by "
                  + StoredText.printable(row.leaseOwner())
                  + " until its lease ends at "
                  + row.leaseExpiresAt()
                  + ": read it again after that");
        }
        applied = table.abandon(c, row, note);
      }
      case RELEASE_KEY -> {
        requireHeld(row, action);
        if (!row.holdsKey()) {
          throw new IllegalStateException(
              "intent "
                  + name(r)
                  + (row.orderingKey() == null
                      ? " has no ordering key"
                      : " does not hold its ordering key"));
        }
        applied = table.releaseKey(c, row, note);
      }
      case REQUEUE_WITH_NEW_KEY -> {
        requireHeld(row, action);
        requireRekeyable(row);
        IntentRecord old = row.record();
        Duration retention = Duration.between(old.createdAt(), old.expiresAt());
        IntentRecord renewed =
            new IntentRecord(
                old.scope(),
                old.intentId(),
                IdempotencyKey.random(),
                old.fingerprint(),
                IntentState.PENDING,
                now,
                now.plus(retention),
                0,
                null);
        newKey = renewed.key().value();
        applied = table.requeueWithNewKey(c, row, renewed, now, note);
      }
      default -> throw new IllegalStateException("unknown action " + action);
    }
    if (!applied) {
      throw new ConcurrentModificationException(
          "intent " + name(r) + " was changed by someone else while it was being acted on");
    }
    String stateAfter =
        switch (action) {
          case REQUEUE, REQUEUE_WITH_NEW_KEY -> "QUEUED";
          case ABANDON ->
              "ENDED "
                  + (row.record().state() == IntentState.PENDING
                      ? IntentState.FAILED
                      : row.record().state());
          case RELEASE_KEY -> AdminTable.state(row) + " KEY RELEASED";
        };
    if (!table.audit(
        c,
        store.open().dialect(),
        actionId,
        now,
        actor,
        action.name(),
        row,
        why,
        stateAfter,
        newKey)) {
      throw new ConcurrentModificationException(
          "intent " + name(r) + " was acted on under the same action id at the same time");
    }
  }

  private static void requireHeld(AdminTable.Row row, Action action) {
    if (row.relayState() != HELD) {
      throw new IllegalStateException(
          "intent "
              + name(row.record())
              + " is not held (it is "
              + AdminTable.state(row)
              + "): only a held intent can be "
              + action.done);
    }
  }

  private static void requireRekeyable(AdminTable.Row row) {
    if (row.request() == null || !row.proven()) {
      throw new IllegalStateException(
          "intent "
              + name(row.record())
              + "'s stored request is not the one enqueued for it: it cannot be re-keyed; find"
              + " out who changed it, and re-enqueue the call");
    }
    if (row.request().keyPlacement().inBody()) {
      throw new IllegalStateException(
          "intent "
              + name(row.record())
              + " carries its key inside its stored body: it cannot be re-keyed here; abandon it"
              + " and re-enqueue the call");
    }
  }

  /**
   * Before a re-key, checks each intent as it now is and proves with the provider that nothing
   * exists for its key; an intent already re-keyed under this action id is not looked up again.
   */
  private void reconcileFirst(
      List<OutboxIntent> seen, String actionId, SafeRetryClient client, Reconciler reconciler) {
    for (OutboxIntent s : seen) {
      IntentRecord r = s.record();
      Optional<Optional<AdminTable.Row>> now =
          store
              .open()
              .autoCommit(
                  "outbox admin check",
                  c ->
                      table.recorded(c, actionId, r.scope(), r.intentId()).isPresent()
                          ? Optional.empty()
                          : Optional.of(table.find(c, r.scope(), r.intentId())));
      if (now.isEmpty()) {
        continue; // recorded before: the transaction returns it as it is
      }
      AdminTable.Row row = now.get().orElseThrow(() -> gone(r));
      if (!OutboxAdmin.intent(row).equals(s)) {
        throw new ConcurrentModificationException(
            "intent "
                + name(r)
                + " was changed by someone else since it was read (it is now "
                + AdminTable.state(row)
                + "): read it again and decide again");
      }
      requireHeld(row, Action.REQUEUE_WITH_NEW_KEY);
      requireRekeyable(row);
      Reconciliation found = client.reconcile(row.record(), reconciler);
      if (!found.isNothingExists()) {
        throw new IllegalStateException(
            "intent "
                + name(r)
                + " was not requeued with a new key: the reconciliation did not prove that"
                + " nothing exists at the provider ("
                + (found.found()
                    ? "it found resource "
                        + StoredText.printable(found.resourceId())
                        + ", and the intent was completed with it"
                    : "unresolved: " + StoredText.printable(found.note()))
                + ")");
      }
    }
  }

  private static List<OutboxIntent> checkIntents(List<OutboxIntent> intents) {
    Objects.requireNonNull(intents, "intents");
    if (intents.isEmpty() || intents.size() > OutboxAdmin.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "intents must hold 1.." + OutboxAdmin.MAX_LIMIT + " intents");
    }
    Set<Pk> ids = new HashSet<>();
    for (OutboxIntent i : intents) {
      Objects.requireNonNull(i, "intents must not hold null");
      if (!ids.add(Pk.of(i.record()))) {
        throw new IllegalArgumentException(
            "intents holds intent " + name(i.record()) + " more than once");
      }
    }
    return List.copyOf(intents);
  }

  static String checkText(String what, String text, int max) {
    StoredText.checkId(what, text, max);
    if (text.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
    return text;
  }

  /** A note fits its column: cut at {@value #MAX_NOTE} characters, never inside a pair. */
  private static String note(String text) {
    if (text.length() <= MAX_NOTE) {
      return text;
    }
    int end = MAX_NOTE;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }

  private static ConcurrentModificationException gone(IntentRecord r) {
    return new ConcurrentModificationException(
        "intent " + name(r) + " is no longer in the outbox (removed since it was read)");
  }

  /** An intent's name for messages: printable, bounded, never a body or a key. */
  private static String name(IntentRecord r) {
    return StoredText.printable(r.scope().operation())
        + "/"
        + StoredText.printable(r.intentId())
        + " of tenant "
        + StoredText.printable(r.scope().tenant());
  }

  /** An intent's identity. */
  private record Pk(String tenant, String operation, String intentId) {
    static Pk of(IntentRecord r) {
      return new Pk(r.scope().tenant(), r.scope().operation(), r.intentId());
    }
  }

  private static final Comparator<OutboxIntent> ORDER =
      Comparator.comparing((OutboxIntent i) -> i.record().scope().tenant())
          .thenComparing(i -> i.record().scope().operation())
          .thenComparing(i -> i.record().intentId());
}
