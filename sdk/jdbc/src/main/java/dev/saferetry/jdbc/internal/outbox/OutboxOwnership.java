package dev.saferetry.jdbc.internal.outbox;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentRefusedException;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.keystore.IntentTable;
import dev.saferetry.jdbc.internal.keystore.RelayCodes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * An intent in the outbox belongs to the outbox: whichever API reaches it — a client's {@code
 * execute} or re-drive of its intent id, {@code KeyStore.abandon}, an enqueue — it is touched only
 * by the outbox's rules. These checks run in the transaction (or right after the statement) that
 * found the intent, and refuse:
 *
 * <ul>
 *   <li>an intent an operator abandoned: never sent, enqueued or forgotten again under its intent
 *       id until an operator releases it ({@link IntentRefusedException#abandoned()}, naming who,
 *       when and why from the audit);
 *   <li>a held (parked) intent, and a queued one with an ordering key: sent only by the relays, in
 *       their key's order, or resolved by an operator;
 *   <li>forgetting a queued intent at all (the relays may be sending it, and nothing would record
 *       why it was never sent).
 * </ul>
 *
 * A queued intent without an ordering key may still be sent by a call of its own with its key (the
 * unordered outbox's fast path: a relay sending it too sends the same key). An intent that ended
 * may be re-driven (its recorded answer is replayed) and forgotten.
 *
 * <p>Stateless and thread-safe.
 */
public final class OutboxOwnership {
  private OutboxOwnership() {}

  /**
   * Refuses a call of its own — an {@code execute} or a re-drive — of an existing intent the outbox
   * owns.
   *
   * @throws IntentRefusedException if the intent is abandoned, held, or queued with an ordering key
   */
  public static void checkSend(Connection c, IntentTable table, IntentRecord existing)
      throws SQLException {
    IntentScope scope = existing.scope();
    Optional<IntentTable.OutboxState> found = table.outboxState(c, scope, existing.intentId());
    if (found.isEmpty() || found.get().relayState() == null) {
      return;
    }
    IntentTable.OutboxState s = found.get();
    switch (s.relayState()) {
      case RelayCodes.ABANDONED -> throw abandoned(c, table, existing, "sent");
      case RelayCodes.HELD ->
          throw held(
              existing,
              "is held (parked) in the outbox as "
                  + (s.hold() == null ? "?" : s.hold().name())
                  + ": only an operator resolves it (OutboxAdmin: requeue, requeueWithNewKey,"
                  + " abandon); it was not sent");
      case RelayCodes.QUEUED -> {
        if (s.orderingKey() != null) {
          throw held(
              existing,
              "is queued in the outbox with ordering key "
                  + ColumnText.printable(s.orderingKey())
                  + ": only the relays send it, after the earlier intents of its key ended; it was"
                  + " not sent");
        }
      }
      default -> {}
    }
  }

  /**
   * Refuses an enqueue that found an existing intent an operator abandoned.
   *
   * @throws IntentRefusedException if it is abandoned
   */
  public static void checkEnqueue(Connection c, IntentTable table, IntentRecord existing)
      throws SQLException {
    Optional<IntentTable.OutboxState> found =
        table.outboxState(c, existing.scope(), existing.intentId());
    if (found.isPresent()
        && found.get().relayState() != null
        && found.get().relayState() == RelayCodes.ABANDONED) {
      throw abandoned(c, table, existing, "enqueued");
    }
  }

  /**
   * Refuses forgetting ({@code KeyStore.abandon}) an intent the outbox still owns: queued, held or
   * abandoned. Called when the delete, which spares such intents, removed nothing.
   *
   * @throws IntentRefusedException if the outbox owns it
   */
  public static void checkForget(Connection c, IntentTable table, IntentScope scope, String id)
      throws SQLException {
    Optional<IntentTable.OutboxState> found = table.outboxState(c, scope, id);
    if (found.isEmpty() || found.get().relayState() == null) {
      return;
    }
    IntentTable.OutboxState s = found.get();
    String name = name(scope, id);
    switch (s.relayState()) {
      case RelayCodes.ABANDONED -> {
        Optional<IntentTable.Abandonment> a = table.lastAbandonment(c, scope, id);
        throw new IntentRefusedException(
            "intent "
                + name
                + abandonedBy(a)
                + ": only an operator releases it (OutboxAdmin: requeue, requeueWithNewKey); it"
                + " was not forgotten",
            true,
            a.map(IntentTable.Abandonment::actor).orElse(null),
            a.map(IntentTable.Abandonment::why).orElse(null),
            a.map(IntentTable.Abandonment::at).orElse(null));
      }
      case RelayCodes.HELD ->
          throw new IntentRefusedException(
              "intent "
                  + name
                  + " is held (parked) in the outbox as "
                  + (s.hold() == null ? "?" : s.hold().name())
                  + (s.orderingKey() == null
                      ? ""
                      : " with ordering key " + ColumnText.printable(s.orderingKey()))
                  + ": forget it through the outbox's operator (OutboxAdmin.abandon, recorded), not"
                  + " the key store; it was not forgotten",
              false,
              null,
              null,
              null);
      case RelayCodes.QUEUED ->
          throw new IntentRefusedException(
              "intent "
                  + name
                  + " is queued in the outbox"
                  + (s.leaseOwner() == null
                      ? ""
                      : " (last leased by "
                          + ColumnText.printable(s.leaseOwner())
                          + " until "
                          + s.leaseEnd()
                          + ")")
                  + ": a relay may be sending it; abandon it through the outbox's operator"
                  + " (OutboxAdmin.abandon, recorded) once no lease on it is live; it was not"
                  + " forgotten",
              false,
              s.leaseOwner(),
              null,
              s.leaseEnd());
      default -> {}
    }
  }

  private static IntentRefusedException abandoned(
      Connection c, IntentTable table, IntentRecord existing, String what) throws SQLException {
    Optional<IntentTable.Abandonment> a =
        table.lastAbandonment(c, existing.scope(), existing.intentId());
    return new IntentRefusedException(
        "intent "
            + name(existing.scope(), existing.intentId())
            + abandonedBy(a)
            + ": it is never "
            + what
            + " again under its intent id unless an operator releases it (OutboxAdmin: requeue,"
            + " requeueWithNewKey); the provider may have acted on it before, reconcile it there",
        true,
        a.map(IntentTable.Abandonment::actor).orElse(null),
        a.map(IntentTable.Abandonment::why).orElse(null),
        a.map(IntentTable.Abandonment::at).orElse(null));
  }

  private static String abandonedBy(Optional<IntentTable.Abandonment> a) {
    return a.map(
            x ->
                " was abandoned by "
                    + ColumnText.printable(x.actor())
                    + " at "
                    + x.at()
                    + " ("
                    + ColumnText.printable(x.why())
                    + ")")
        .orElse(" was abandoned by an operator (its audit row is gone)");
  }

  private static IntentRefusedException held(IntentRecord existing, String why) {
    return new IntentRefusedException(
        "intent " + name(existing.scope(), existing.intentId()) + " " + why,
        false,
        null,
        null,
        null);
  }

  private static String name(IntentScope scope, String intentId) {
    return ColumnText.printable(scope.operation())
        + "/"
        + ColumnText.printable(intentId)
        + " of tenant "
        + ColumnText.printable(scope.tenant());
  }
}
