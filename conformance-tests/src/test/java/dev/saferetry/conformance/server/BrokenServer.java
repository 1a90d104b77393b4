package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Negative-control fixtures: real reference servers whose idempotency flow has one classic bug
 * each, and exactly the MUST cases of the conformance suite that must catch it.
 */
public enum BrokenServer {
  /** Never compares request hashes: a reused key with another payload replays. */
  NO_PAYLOAD_COMPARISON(
      Set.of("mismatch.rejected"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            boolean sameRequest(String storedHash, String requestHash) {
              return true;
            }
          }),
  /** Checks for the key, then mutates and records it afterwards: no unique constraint wins. */
  CHECK_THEN_ACT(
      Set.of("concurrent.one-effect", "inflight.other-payload", "lock.held-while-running"),
      CheckThenActFlow::new),
  /** Executes but never keeps the record: nothing to replay. */
  NOTHING_STORED(
      Set.of(
          "replay.same-payload",
          "replay.after-change",
          "mismatch.rejected",
          "scope.query-string",
          "scope.path-variants",
          "concurrent.one-effect",
          "lost-response.retry-replays",
          "fault.5xx-after-commit",
          "fault.5xx-before-commit",
          "lock.never-finishing-request",
          "durability.restart",
          "expiry.kept-until-retention"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            boolean complete(Connection c, IdempotencyRequest r, String owner, Outcome outcome)
                throws SQLException {
              ctx.keys().release(c, r, owner);
              return true;
            }
          }),
  /** Stores a 5xx as the outcome but not its status: the failure is replayed as a 201. */
  FAILURE_REPLAYED_AS_SUCCESS(
      Set.of("fault.5xx-before-commit"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            Reply failedBeforeCommit(IdempotencyRequest r, String owner, int status)
                throws SQLException {
              Reply reply = injectedFailure(status);
              try (Tx tx = ctx.db().begin()) {
                ctx.keys()
                    .complete(
                        tx.connection(), r, owner, new Outcome(201, reply.body(), null, null));
                tx.commit();
              }
              return reply;
            }
          }),
  /** One global key space: keys are not scoped per tenant or per operation. */
  GLOBAL_KEYS(
      Set.of("scope.per-tenant"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            IdempotencyRequest scope(IdempotencyRequest r) {
              return new IdempotencyRequest("*", "*", r.path(), r.key(), r.requestHash());
            }
          }),
  /** Keys scoped by the literal request path, while the router accepts path variants. */
  PATH_SCOPED_KEYS(
      Set.of("scope.path-variants"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            IdempotencyRequest scope(IdempotencyRequest r) {
              String operation = "POST " + r.path();
              return new IdempotencyRequest(
                  r.tenant(), operation, r.path(), r.key(), r.requestHash());
            }
          }),
  /** A pending key with another payload is taken over and executed: "it is a new request". */
  OTHER_PAYLOAD_TAKES_OVER_PENDING(
      Set.of("inflight.other-payload"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            Claim decide(
                Connection c, IdempotencyRequest r, KeyRecord record, String owner, Instant now)
                throws SQLException {
              if (record != null
                  && !record.completed()
                  && !sameRequest(record.requestHash(), r.requestHash())) {
                ctx.keys().claim(c, r, owner, now, now.plus(ctx.retention()));
                return new Claim(Decision.CLAIMED, record);
              }
              return super.decide(c, r, record, owner, now);
            }
          }),
  /** Releases the pending lock before the mutation commits, then upserts the result. */
  LOCK_RELEASED_EARLY(
      Set.of(
          "concurrent.one-effect",
          "inflight.other-payload",
          "lock.held-while-running",
          "expiry.concurrent-retries"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            Claim claim(IdempotencyRequest r, String owner) throws SQLException {
              Claim claim = super.claim(r, owner);
              if (claim.decision() == Decision.CLAIMED) {
                release(r, owner);
              }
              return claim;
            }

            @Override
            boolean complete(Connection c, IdempotencyRequest r, String owner, Outcome outcome)
                throws SQLException {
              upsertCompleted(c, r, outcome, ctx.clock().instant(), ctx.retention().getSeconds());
              return true;
            }
          }),
  /** Replays the resource as it is now instead of the stored original response. */
  REPLAY_CURRENT_RESOURCE(Set.of("replay.after-change"), ReplayCurrentFlow::new),
  /** Keeps keys only in memory: a restart forgets them. */
  KEYS_FORGOTTEN_ON_RESTART(
      Set.of("durability.restart"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            void onRestart() throws SQLException {
              try (Tx tx = ctx.db().begin();
                  Statement s = tx.connection().createStatement()) {
                s.executeUpdate("delete from api_idempotency");
                tx.commit();
              }
            }
          }),
  /** Commits the mutation and the stored result in two transactions, releasing on failure. */
  NON_ATOMIC_RESULT(Set.of("fault.5xx-after-commit"), NonAtomicFlow::new),
  /** Runs a retry of an expired key without re-claiming the record under its row lock. */
  EXPIRY_WITHOUT_RECLAIM(
      Set.of("expiry.concurrent-retries"),
      ctx ->
          new UnfencedCompletion(ctx) {
            @Override
            Claim decide(
                Connection c, IdempotencyRequest r, KeyRecord record, String owner, Instant now)
                throws SQLException {
              if (record != null && !record.expiresAt().isAfter(now)) {
                return new Claim(Decision.CLAIMED, record); // "expired, so just run it"
              }
              return super.decide(c, r, record, owner, now);
            }
          }),
  /** Keeps keys 10 s although the profile declares 24 h: a retry a day later executes again. */
  RETENTION_SHORTER_THAN_DECLARED(
      Set.of("expiry.kept-until-retention"),
      IdempotencyFlow::new,
      b -> b.retention(Duration.ofSeconds(10))),
  /**
   * Lets a retry take over a pending key after 5 s although 30 s are declared, and stores whichever
   * outcome commits, unfenced: the first request, still running, commits as well.
   */
  LOCK_TAKEN_OVER_BEFORE_DECLARED_TIMEOUT(
      Set.of("lock.held-while-running"),
      UnfencedCompletion::new,
      b -> b.lockTimeout(Duration.ofSeconds(5))),
  /** Never lets a retry take over a pending record: a hung request wedges its key. */
  LOCK_NEVER_EXPIRES(
      Set.of("lock.never-finishing-request"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            boolean stale(KeyRecord record, Instant now) {
              return false;
            }
          });

  private final Set<String> mustFailures;
  private final UnaryOperator<ReferenceServer.Builder> shape;

  BrokenServer(Set<String> mustFailures, Function<FlowContext, IdempotencyFlow> flow) {
    this(mustFailures, flow, UnaryOperator.identity());
  }

  BrokenServer(
      Set<String> mustFailures,
      Function<FlowContext, IdempotencyFlow> flow,
      UnaryOperator<ReferenceServer.Builder> settings) {
    this.mustFailures = mustFailures;
    this.shape = b -> settings.apply(b.flow(flow));
  }

  /** Exactly the MUST cases that must catch this bug. */
  public Set<String> mustFailures() {
    return mustFailures;
  }

  /** A (not yet started) reference server with this bug. */
  public ReferenceServer build() {
    return shape.apply(ReferenceServer.builder()).build();
  }

  /**
   * Commits every execution's outcome, whether or not its claim is still its own: the check that
   * fences off a request whose key was taken over is missing.
   */
  static class UnfencedCompletion extends IdempotencyFlow {
    UnfencedCompletion(FlowContext ctx) {
      super(ctx);
    }

    @Override
    boolean complete(Connection c, IdempotencyRequest r, String owner, Outcome outcome)
        throws SQLException {
      if (!super.complete(c, r, owner, outcome)) {
        upsertCompleted(c, r, outcome, ctx.clock().instant(), ctx.retention().getSeconds());
      }
      return true;
    }
  }

  /**
   * Overwrites any record for the scope with a completed one, as a store without a unique
   * constraint would; a conflict is ignored and the mutation committed anyway.
   */
  static void upsertCompleted(
      Connection c, IdempotencyRequest r, Outcome o, Instant now, long retentionSeconds)
      throws SQLException {
    try (PreparedStatement delete =
        c.prepareStatement(
            "delete from api_idempotency where"
                + " tenant_id = ? and operation = ? and idempotency_key = ?")) {
      KeyTable.bindScope(delete, r);
      delete.executeUpdate();
    }
    try (PreparedStatement insert =
        c.prepareStatement(
            "insert into api_idempotency (tenant_id,"
                + " operation, idempotency_key, request_hash, state, status_code, response_body,"
                + " resource_type, resource_id, created_at, expires_at)"
                + " values (?, ?, ?, ?, 'COMPLETED', ?, ?, ?, ?, ?, ?)")) {
      KeyTable.bindScope(insert, r);
      insert.setString(4, r.requestHash());
      insert.setInt(5, o.status());
      insert.setString(6, o.body());
      insert.setString(7, o.resourceType());
      insert.setString(8, o.resourceId());
      insert.setObject(9, KeyTable.utc(now));
      insert.setObject(10, KeyTable.utc(now.plusSeconds(retentionSeconds)));
      insert.executeUpdate();
    } catch (SQLException e) {
      if (!"23505".equals(e.getSQLState())) {
        throw e;
      }
    }
  }
}
