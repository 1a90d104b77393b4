package dev.saferetry.conformance.server;

import java.sql.SQLException;

/**
 * Broken: the mutation commits in its own transaction and the result is stored in a second one; a
 * failure in between releases the key although the effect already happened.
 */
class NonAtomicFlow extends IdempotencyFlow {
  NonAtomicFlow(FlowContext ctx) {
    super(ctx);
  }

  @Override
  Reply execute(IdempotencyRequest r, String owner, Mutation mutation) throws SQLException {
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
        return failedBeforeCommit(r, owner, fault.status());
      }
      tx.commit();
    }
    if (is(fault, Fault.Kind.FAIL_AFTER_COMMIT)) {
      release(r, owner); // "the request failed", so the key is handed back
      return injectedFailure(fault.status());
    }
    try (Tx tx = ctx.db().begin()) {
      complete(tx.connection(), r, owner, outcome);
      tx.commit();
    }
    return afterCommit(outcome, fault);
  }
}
