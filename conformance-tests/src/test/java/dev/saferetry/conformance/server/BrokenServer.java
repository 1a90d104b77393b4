package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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
      Set.of(
          "concurrent.one-effect",
          "inflight.other-payload",
          "lock.held-while-running",
          "lock.slow-request-takeover"),
      CheckThenActFlow::new),
  /** Executes but never keeps the record: nothing to replay. */
  NOTHING_STORED(
      // Every case built on a replay still runs and shows its own second charge (a retry, a
      // query string, a path variant, a lost response, a 5xx, a hung request, a restart, a retry
      // within retention: each executes again); the takeover case fails as well: a completion
      // that stores nothing cannot check it still owns the key.
      Set.of(
          "replay.basic",
          "replay.same-payload",
          "replay.after-change",
          "mismatch.rejected",
          "scope.query-string",
          "scope.path-variants",
          "concurrent.one-effect",
          "lost-response.retry-replays",
          "fault.5xx-after-commit",
          "fault.5xx-before-commit",
          "fault.unhandled-exception",
          "lock.never-finishing-request",
          "lock.slow-request-takeover",
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
          "lock.slow-request-takeover",
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
  NON_ATOMIC_RESULT(
      Set.of("fault.5xx-after-commit", "lock.slow-request-takeover"), NonAtomicFlow::new),
  /** Runs a retry of an expired key without re-claiming the record under its row lock. */
  EXPIRY_WITHOUT_RECLAIM(
      Set.of("expiry.concurrent-retries", "lock.slow-request-takeover"),
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
      Set.of("lock.held-while-running", "lock.slow-request-takeover"),
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
          }),
  /**
   * Answers 422 to every identical retry: the fingerprint covers something that changes on every
   * request (a request id, a timestamp), so no retry is ever recognised as the same request.
   */
  EVERY_RETRY_REJECTED(
      Set.of("replay.basic"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            boolean sameRequest(String storedHash, String requestHash) {
              return false;
            }
          }),
  /**
   * Lets a retry take a key over once its lock timed out (as the reference does, after the declared
   * 30 s), but stores whichever outcome commits: the first request, only slow, commits as well.
   */
  UNFENCED_TAKEOVER(Set.of("lock.slow-request-takeover"), UnfencedCompletion::new),
  /** Keys optional, and an empty key header is taken for the key "": one key for every client. */
  EMPTY_KEY_IS_ONE_KEY(
      Set.of("key.empty-not-shared"),
      Set.of(),
      IdempotencyFlow::new,
      b -> b.requireKey(false).emptyKey(ServerSettings.EmptyKey.ONE_KEY),
      Map.of("require-key", "false")),
  /**
   * After an unhandled exception the framework answers its own 500, but the idempotency layer
   * stores the exception in its own words and replays a 500 with another body.
   */
  UNHANDLED_500_REPLAYED_WITH_ANOTHER_BODY(
      Set.of("fault.unhandled-exception"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            void failedWithoutCommit(IdempotencyRequest r, String owner, Exception failure)
                throws SQLException {
              String stored =
                  "{\"statusCode\":500,\"message\":\"Internal Server Error\"}"; // not the 500 sent
              try (Tx tx = ctx.db().begin()) {
                ctx.keys()
                    .complete(tx.connection(), r, owner, new Outcome(500, stored, null, null));
                tx.commit();
              }
            }
          }),
  /**
   * Never stores an error outcome: a 4xx releases the key, so a retry executes again — and, the
   * world unchanged, answers the same 4xx, which alone looks like a replay.
   */
  ERRORS_NOT_STORED(
      Set.of(),
      Set.of("replay.error-outcome"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            boolean complete(Connection c, IdempotencyRequest r, String owner, Outcome outcome)
                throws SQLException {
              if (outcome.status() >= 400) {
                ctx.keys().release(c, r, owner);
                return true;
              }
              return super.complete(c, r, owner, outcome);
            }
          },
      UnaryOperator.identity(),
      Map.of()),
  /** Replays the stored body byte for byte, but as {@code text/plain}: not the original's type. */
  REPLAY_WITH_ANOTHER_CONTENT_TYPE(
      Set.of(),
      Set.of("replay.content-type"),
      ctx ->
          new IdempotencyFlow(ctx) {
            @Override
            Reply replay(IdempotencyRequest r, KeyRecord record) throws SQLException {
              return super.replay(r, record).withContentType("text/plain");
            }
          },
      UnaryOperator.identity(),
      Map.of());

  private final Set<String> mustFailures;
  private final Set<String> otherFailures;
  private final UnaryOperator<ReferenceServer.Builder> shape;
  private final Map<String, String> profile;

  BrokenServer(Set<String> mustFailures, Function<FlowContext, IdempotencyFlow> flow) {
    this(mustFailures, flow, UnaryOperator.identity());
  }

  BrokenServer(
      Set<String> mustFailures,
      Function<FlowContext, IdempotencyFlow> flow,
      UnaryOperator<ReferenceServer.Builder> settings) {
    this(mustFailures, Set.of(), flow, settings, Map.of());
  }

  BrokenServer(
      Set<String> mustFailures,
      Set<String> otherFailures,
      Function<FlowContext, IdempotencyFlow> flow,
      UnaryOperator<ReferenceServer.Builder> settings,
      Map<String, String> profile) {
    this.mustFailures = mustFailures;
    this.otherFailures = otherFailures;
    this.shape = b -> settings.apply(b.flow(flow));
    this.profile = profile;
  }

  /** Exactly the MUST cases that must catch this bug (none: it breaks only a SHOULD or MAY). */
  public Set<String> mustFailures() {
    return mustFailures;
  }

  /** SHOULD or MAY cases that must catch this bug. */
  public Set<String> otherFailures() {
    return otherFailures;
  }

  /** Properties describing this server on top of {@code ietf,reference}. */
  public Map<String, String> profile() {
    return profile;
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
