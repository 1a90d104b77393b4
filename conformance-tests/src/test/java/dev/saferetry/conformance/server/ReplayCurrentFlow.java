package dev.saferetry.conformance.server;

import java.sql.SQLException;

/** Broken: a replay re-reads the resource instead of returning the stored response. */
final class ReplayCurrentFlow extends IdempotencyFlow {
  ReplayCurrentFlow(FlowContext ctx) {
    super(ctx);
  }

  @Override
  Reply replay(IdempotencyRequest r, KeyRecord record) throws SQLException {
    Outcome stored = record.outcome();
    if (!"charge".equals(stored.resourceType())) {
      return super.replay(r, record);
    }
    try (Tx tx = ctx.db().begin()) {
      String current = ChargesApi.findCharge(tx.connection(), r.tenant(), stored.resourceId());
      tx.commit();
      return Reply.of(
          new Outcome(stored.status(), current, stored.resourceType(), stored.resourceId()), true);
    }
  }
}
