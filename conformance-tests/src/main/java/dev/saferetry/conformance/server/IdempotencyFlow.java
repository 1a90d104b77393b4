package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The server half of the Idempotency-Key contract, in two transactions (docs/ARCHITECTURE.md, "The
 * reference server", says why).
 *
 * <ol>
 *   <li>Claim (transaction 1): insert a pending record, on conflict do nothing; load it {@code for
 *       update}; treat an expired record as absent; compare request hashes; replay a completed
 *       record; answer 409 while another request holds a fresh pending record; take over a pending
 *       record older than the lock timeout. Commit.
 *   <li>Execute (transaction 2): run the mutation, then, under the record's row lock, check the
 *       claim is still ours and store the outcome as completed — mutation and stored result commit
 *       together or not at all. A failure before commit releases the claim.
 * </ol>
 *
 * <p>Package-private and deliberately not final: the conformance suite's negative controls (test
 * fixtures) override single steps to build realistic broken servers. Thread-safe.
 */
class IdempotencyFlow {
  /** The result of the claim step. */
  enum Decision {
    CLAIMED,
    REPLAY,
    MISMATCH,
    IN_PROGRESS
  }

  /** A decision plus the record it was made on. */
  record Claim(Decision decision, KeyRecord record) {}

  final FlowContext ctx;

  IdempotencyFlow(FlowContext ctx) {
    this.ctx = ctx;
  }

  /** Handles one keyed mutation request end to end. */
  Reply handle(IdempotencyRequest request, Mutation mutation) throws SQLException {
    IdempotencyRequest scoped = scope(request);
    String owner = ChargesApi.random();
    Claim claim = claimWithRetry(scoped, owner);
    return switch (claim.decision()) {
      case CLAIMED -> execute(scoped, owner, mutation);
      case REPLAY -> replay(scoped, claim.record());
      case MISMATCH -> Reply.mismatch();
      case IN_PROGRESS -> Reply.inProgress();
    };
  }

  /** The key scope: per tenant and per operation. */
  IdempotencyRequest scope(IdempotencyRequest request) {
    return request;
  }

  /** Retries the short claim transaction when the database reports a transient conflict. */
  private Claim claimWithRetry(IdempotencyRequest r, String owner) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        return claim(r, owner);
      } catch (SQLException e) {
        if (attempt >= 3 || !transientConflict(e.getSQLState())) {
          throw e;
        }
      }
    }
  }

  private static boolean transientConflict(String sqlState) {
    // serialization failure, deadlock (SQL standard / PostgreSQL), H2 lock timeout and
    // H2 concurrent update.
    return "40001".equals(sqlState)
        || "40P01".equals(sqlState)
        || "HYT00".equals(sqlState)
        || "90131".equals(sqlState);
  }

  Claim claim(IdempotencyRequest r, String owner) throws SQLException {
    Instant now = ctx.clock().instant();
    try (Tx tx = ctx.db().begin()) {
      Connection c = tx.connection();
      boolean inserted = ctx.keys().insertPending(c, r, owner, now, now.plus(ctx.retention()));
      KeyRecord record = ctx.keys().lock(c, r);
      Claim claim =
          inserted && record != null && owner.equals(record.lockOwner())
              ? new Claim(Decision.CLAIMED, record)
              : decide(c, r, record, owner, now);
      tx.commit();
      return claim;
    }
  }

  Claim decide(Connection c, IdempotencyRequest r, KeyRecord record, String owner, Instant now)
      throws SQLException {
    if (record == null) {
      return new Claim(Decision.IN_PROGRESS, null); // released between insert and lock: retry
    }
    if (!record.expiresAt().isAfter(now)) {
      ctx.keys().claim(c, r, owner, now, now.plus(ctx.retention())); // expired counts as absent
      return new Claim(Decision.CLAIMED, record);
    }
    if (!sameRequest(record.requestHash(), r.requestHash())) {
      return new Claim(Decision.MISMATCH, record);
    }
    if (record.completed()) {
      return new Claim(Decision.REPLAY, record);
    }
    if (!stale(record, now)) {
      return new Claim(Decision.IN_PROGRESS, record);
    }
    ctx.keys().claim(c, r, owner, now, now.plus(ctx.retention()));
    return new Claim(Decision.CLAIMED, record);
  }

  boolean sameRequest(String storedHash, String requestHash) {
    return storedHash.equals(requestHash);
  }

  boolean stale(KeyRecord record, Instant now) {
    return record.lockedAt() != null && !record.lockedAt().plus(ctx.lockTimeout()).isAfter(now);
  }

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
      if (!complete(tx.connection(), r, owner, stored(outcome, fault))) {
        tx.rollback();
        return Reply.inProgress(); // our claim was taken over: its new owner executes
      }
      tx.commit();
    } catch (SQLException | RuntimeException e) {
      // Nothing committed: the key is released, whatever went wrong, so that a retry executes
      // instead of meeting "in progress" until the lock timeout.
      failedWithoutCommit(r, owner, e);
      throw e;
    }
    return afterCommit(outcome, fault);
  }

  /** After a failure before commit: releases the claim (the failure is never stored). */
  void failedWithoutCommit(IdempotencyRequest r, String owner, Exception failure)
      throws SQLException {
    release(r, owner);
  }

  /** The {@link Fault.Kind#UNHANDLED_EXCEPTION} fault: a bug in the handler, not a reply. */
  static void throwIfArmed(Fault fault) {
    if (is(fault, Fault.Kind.UNHANDLED_EXCEPTION)) {
      throw new IllegalStateException("injected unhandled exception (test fault)");
    }
  }

  /** Runs a mutation without idempotency (only when the server does not require keys). */
  Reply executeWithoutKey(Mutation mutation) throws SQLException {
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
    return afterCommit(outcome, fault);
  }

  /** The outcome stored for replay: the mutation's own (a fault's 5xx is never stored). */
  Outcome stored(Outcome outcome, Fault fault) {
    return outcome;
  }

  boolean complete(Connection c, IdempotencyRequest r, String owner, Outcome outcome)
      throws SQLException {
    return ctx.keys().complete(c, r, owner, outcome);
  }

  Reply failedBeforeCommit(IdempotencyRequest r, String owner, int status) throws SQLException {
    release(r, owner);
    return injectedFailure(status);
  }

  Reply replay(IdempotencyRequest r, KeyRecord record) throws SQLException {
    return Reply.of(record.outcome(), true);
  }

  /** Called by the {@code /_test/restart} hook; the reference keeps everything in the DB. */
  void onRestart() throws SQLException {
    ctx.db().closeIdle();
  }

  void release(IdempotencyRequest r, String owner) throws SQLException {
    try (Tx tx = ctx.db().begin()) {
      ctx.keys().release(tx.connection(), r, owner);
      tx.commit();
    }
  }

  static Reply afterCommit(Outcome outcome, Fault fault) {
    if (is(fault, Fault.Kind.FAIL_AFTER_COMMIT)) {
      return injectedFailure(fault.status());
    }
    return is(fault, Fault.Kind.DROP_AFTER_COMMIT) ? Reply.dropped() : Reply.of(outcome, false);
  }

  static Reply injectedFailure(int status) {
    return Reply.of(status, Json.error("api_error", "injected_fault", "Injected test fault"));
  }

  static boolean is(Fault fault, Fault.Kind kind) {
    return fault != null && fault.kind() == kind;
  }

  void pause(Fault fault) {
    if (is(fault, Fault.Kind.DELAY)) {
      try {
        ctx.closing().await(fault.delay().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  void awaitClose() {
    try {
      ctx.closing().await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
