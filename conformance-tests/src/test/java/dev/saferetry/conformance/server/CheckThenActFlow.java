package dev.saferetry.conformance.server;

import java.sql.SQLException;

/** Broken: looks the key up, and only after the mutation committed records it. */
final class CheckThenActFlow extends IdempotencyFlow {
  CheckThenActFlow(FlowContext ctx) {
    super(ctx);
  }

  @Override
  Reply handle(IdempotencyRequest r, Mutation mutation) throws SQLException {
    KeyRecord existing;
    try (Tx tx = ctx.db().begin()) {
      existing = ctx.keys().lock(tx.connection(), r);
      tx.commit();
    }
    if (existing != null && existing.completed()) {
      return sameRequest(existing.requestHash(), r.requestHash())
          ? Reply.of(existing.outcome(), true)
          : Reply.mismatch();
    }
    Fault fault = ctx.faults().poll();
    if (is(fault, Fault.Kind.HANG)) {
      awaitClose();
      return Reply.dropped();
    }
    Outcome outcome;
    try (Tx tx = ctx.db().begin()) {
      outcome = mutation.run(tx.connection(), ctx.clock().instant());
      pause(fault);
      throwIfArmed(fault);
      if (is(fault, Fault.Kind.FAIL_BEFORE_COMMIT)) {
        tx.rollback();
        return injectedFailure(fault.status());
      }
      tx.commit();
    }
    try (Tx tx = ctx.db().begin()) {
      BrokenServer.upsertCompleted(
          tx.connection(), r, outcome, ctx.clock().instant(), ctx.retention().getSeconds());
      tx.commit();
    }
    return afterCommit(outcome, fault);
  }
}
