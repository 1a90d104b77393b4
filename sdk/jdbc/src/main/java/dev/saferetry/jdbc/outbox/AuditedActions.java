package dev.saferetry.jdbc.outbox;

import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentRefusedException;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.internal.outbox.AdminTable;
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
import java.util.Set;

/**
 * The operator's actions on the outbox (requeue, abandon, let a key continue, requeue with a new
 * key), as {@link OutboxAdmin} offers them: each checks the intents it is given against the rows as
 * they are now, under their row locks, applies its change and records it in the audit, all in one
 * transaction (see {@link OutboxAdmin} for the rules).
 *
 * <p>Immutable and thread-safe.
 */
final class AuditedActions {
  private static final int MAX_ACTION_ID = 128;
  private static final int MAX_REASON = 1000;
  private static final int MAX_NOTE = 1000;

  /** The most intents one action takes. */
  static final int MAX_INTENTS = 1000;

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

  private final KeyStoreDatabase store;
  private final AdminTable table;
  private final String actor;
  private final Duration maxAge;

  AuditedActions(KeyStoreDatabase store, AdminTable table, String actor, Duration maxAge) {
    this.store = store;
    this.table = table;
    this.actor = actor;
    this.maxAge = maxAge;
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
      reconcileFirst(action, seen, id, reason, client, reconciler);
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
    if (!alreadyDone(table.uses(c, actionId), action, sorted, actionId, why)) {
      for (int i = 0; i < sorted.size(); i++) {
        apply(c, action, sorted.get(i), locked.get(i), actionId, why, now);
      }
    }
    Map<Pk, OutboxIntent> out = new HashMap<>();
    for (OutboxIntent s : sorted) {
      IntentRecord r = s.record();
      AdminTable.Row row =
          table
              .find(c, r.scope(), r.intentId())
              .orElseThrow(() -> gone(r)); // an action never deletes
      out.put(Pk.of(r), OutboxRows.intent(row));
    }
    return out;
  }

  /**
   * Whether this very request — the action, its intents and its reason — was applied before under
   * {@code actionId} (a retried script, a second click, a second operator on the same ticket): then
   * nothing more is done. An action id recorded for anything else (another action, another set of
   * intents, another reason) is refused: reusing it would silently do nothing, or record two
   * different acts under one id.
   *
   * @throws IllegalArgumentException if the action id was used for another request
   */
  private boolean alreadyDone(
      List<AdminTable.Use> uses,
      Action action,
      List<OutboxIntent> intents,
      String actionId,
      String why) {
    if (uses.isEmpty()) {
      return false;
    }
    Set<Pk> asked = new HashSet<>();
    intents.forEach(i -> asked.add(Pk.of(i.record())));
    Set<Pk> recorded = new HashSet<>();
    AdminTable.Use first = uses.get(0);
    boolean same = true;
    for (AdminTable.Use u : uses) {
      recorded.add(new Pk(u.tenant(), u.operation(), u.intentId()));
      same &= u.action().equals(action.name()) && u.reason().equals(why);
    }
    if (same && recorded.equals(asked)) {
      return true;
    }
    throw new IllegalArgumentException(
        "action id "
            + ColumnText.printable(actionId)
            + " was already used for "
            + ColumnText.printable(first.action())
            + " of "
            + (recorded.size() == 1
                ? "intent "
                    + ColumnText.printable(first.operation())
                    + "/"
                    + ColumnText.printable(first.intentId())
                    + " of tenant "
                    + ColumnText.printable(first.tenant())
                : recorded.size() + " intents")
            + " by "
            + ColumnText.printable(first.actor())
            + (first.action().equals(action.name()) && recorded.equals(asked)
                ? " with another reason"
                : "")
            + ": an action id names one request; use a new action id");
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
    if (!OutboxRows.intent(row).equals(seen)) {
      throw new ConcurrentModificationException(
          "intent "
              + name(r)
              + " was changed by someone else since it was read (it is now "
              + AdminTable.state(row)
              + "): read it again and decide again");
    }
    if (row.leaseExpiresAt() != null && row.leaseExpiresAt().isAfter(now)) {
      throw new IntentRefusedException(
          "intent "
              + name(r)
              + " may be being sent by "
              + ColumnText.printable(row.leaseOwner())
              + ": its lease ends at "
              + row.leaseExpiresAt()
              + " by the database's clock; nothing was "
              + action.done
              + ", read it again after that",
          false,
          row.leaseOwner(),
          null,
          row.leaseExpiresAt());
    }
    String note = note(action.done + " by " + actor + ": " + why);
    String newKey = null;
    boolean applied;
    switch (action) {
      case REQUEUE -> {
        requireHeldOrAbandoned(row, action);
        if (row.record().isExpired(now)) {
          throw new IllegalStateException(
              "intent "
                  + name(r)
                  + " is past its key's retention: re-sending its key could charge twice once the"
                  + " provider forgot it; reconcile it and requeue it with a new key");
        }
        if (!row.record().createdAt().isAfter(now.minus(maxAge))) {
          throw new IllegalStateException(
              "intent "
                  + name(r)
                  + " is older than the table's maximum age ("
                  + maxAge
                  + ", by the database's clock): a relay would hold it EXPIRED again without"
                  + " sending it; reconcile it and requeue it with a new key");
        }
        applied = table.requeue(c, row, now, place(c, row), note);
      }
      case ABANDON -> {
        if (row.relayState() == OutboxRows.ENDED) {
          throw new IllegalStateException("intent " + name(r) + " already ended");
        }
        if (row.relayState() == OutboxRows.ABANDONED) {
          throw new IllegalStateException("intent " + name(r) + " is already abandoned");
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
        requireHeldOrAbandoned(row, action);
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
        applied = table.requeueWithNewKey(c, row, renewed, now, place(c, row), note);
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
          case ABANDON -> "ABANDONED " + row.record().state();
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

  /**
   * The ordering number a requeued intent takes: its own while it still holds its key (nothing of
   * its key went on meanwhile: it is still the head), else a new one, at the end of its key's queue
   * as if enqueued now — its key went on without it, and a later intent of the key may be in
   * flight, which it must not overtake.
   */
  private long place(Connection c, AdminTable.Row row) throws SQLException {
    if (row.orderingKey() == null) {
      return 0;
    }
    if (row.relayState() == OutboxRows.HELD && row.holdsKey()) {
      return row.orderingSeq();
    }
    return store.intents().nextNumber(c, row.record().scope().tenant(), row.orderingKey());
  }

  private static void requireHeldOrAbandoned(AdminTable.Row row, Action action) {
    if (row.relayState() != OutboxRows.HELD && row.relayState() != OutboxRows.ABANDONED) {
      throw new IllegalStateException(
          "intent "
              + name(row.record())
              + " is not held (nor abandoned: it is "
              + AdminTable.state(row)
              + "): only a held or abandoned intent can be "
              + action.done);
    }
  }

  private static void requireHeld(AdminTable.Row row, Action action) {
    if (row.relayState() != OutboxRows.HELD) {
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
      Action action,
      List<OutboxIntent> seen,
      String actionId,
      String why,
      SafeRetryClient client,
      Reconciler reconciler) {
    List<AdminTable.Use> uses =
        store.open().autoCommit("outbox admin check", c -> table.uses(c, actionId));
    if (alreadyDone(uses, action, seen, actionId, why)) {
      return; // recorded before: the transaction returns the intents as they are
    }
    for (OutboxIntent s : seen) {
      IntentRecord r = s.record();
      AdminTable.Row row =
          store
              .open()
              .autoCommit("outbox admin check", c -> table.find(c, r.scope(), r.intentId()))
              .orElseThrow(() -> gone(r));
      if (!OutboxRows.intent(row).equals(s)) {
        throw new ConcurrentModificationException(
            "intent "
                + name(r)
                + " was changed by someone else since it was read (it is now "
                + AdminTable.state(row)
                + "): read it again and decide again");
      }
      requireHeldOrAbandoned(row, Action.REQUEUE_WITH_NEW_KEY);
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
                        + ColumnText.printable(found.resourceId())
                        + ", and the intent was completed with it"
                    : "unresolved: " + ColumnText.printable(found.note()))
                + ")");
      }
    }
  }

  private static List<OutboxIntent> checkIntents(List<OutboxIntent> intents) {
    Objects.requireNonNull(intents, "intents");
    if (intents.isEmpty() || intents.size() > MAX_INTENTS) {
      throw new IllegalArgumentException("intents must hold 1.." + MAX_INTENTS + " intents");
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

  /**
   * Checks a text recorded in the audit or shown to people: 1 to {@code max} characters, not blank,
   * no control characters, no format characters (the bidirectional overrides and isolates U+202A to
   * U+202E and U+2066 to U+2069, zero-width characters, ...) and no line or paragraph separators,
   * which could make a recorded actor or reason read as something else.
   */
  static String checkText(String what, String text, int max) {
    ColumnText.checkId(what, text, max);
    if (text.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      int type = Character.getType(cp);
      if (type == Character.FORMAT
          || type == Character.CONTROL
          || type == Character.LINE_SEPARATOR
          || type == Character.PARAGRAPH_SEPARATOR) {
        throw new IllegalArgumentException(
            what
                + " contains a control or format character (U+"
                + String.format(java.util.Locale.ROOT, "%04X", cp)
                + " at index "
                + i
                + "): it could make the recorded text read as something else");
      }
      i += Character.charCount(cp);
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
    return ColumnText.printable(r.scope().operation())
        + "/"
        + ColumnText.printable(r.intentId())
        + " of tenant "
        + ColumnText.printable(r.scope().tenant());
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
