package dev.saferetry.conformance.server;

import java.net.URI;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * Servers, and hooks, with the flaws that made earlier versions of the suite wrong: state an
 * earlier run left behind, a duplicate hidden behind a failed prerequisite, a counter blind to an
 * operation the profile declares, and fault hooks that commit before they hold. Each comes with the
 * properties that declare it on top of {@code ietf,reference}.
 */
public final class FlawedServers {
  private FlawedServers() {}

  /**
   * Keys required, but an empty key taken for the key "" — one key shared by every such request —
   * and another payload under a used key answered as Stripe answers it: 400 with an idempotency
   * error type, the very status of an invalid key. The record the first run's empty-key request
   * leaves answers every later run's empty-key request with that 400.
   */
  public static ReferenceServer emptyKeySharedUsedKeyAnswered400() {
    return ReferenceServer.builder()
        .emptyKey(ServerSettings.EmptyKey.ONE_KEY)
        .flow(
            ctx ->
                new IdempotencyFlow(ctx) {
                  @Override
                  Reply handle(IdempotencyRequest request, Mutation mutation) throws SQLException {
                    Reply reply = super.handle(request, mutation);
                    return reply.status() == 422
                        ? Reply.of(
                            400,
                            "{\"error\":{\"type\":\"idempotency_error\",\"message\":\"Keys for"
                                + " idempotent requests can only be used with the same parameters"
                                + " they were first used with.\"}}")
                        : reply;
                  }
                })
        .build();
  }

  /**
   * Keys optional, an empty key taken for the key "" — one key shared by every such request — and
   * every refusal answered alike: another payload under a used key, a request that fails validation
   * and a request in progress all get the same 400 and body, so no refusal tells why.
   */
  public static ReferenceServer emptyKeySharedEveryRefusalAlike() {
    return ReferenceServer.builder()
        .requireKey(false)
        .emptyKey(ServerSettings.EmptyKey.ONE_KEY)
        .flow(
            ctx ->
                new IdempotencyFlow(ctx) {
                  @Override
                  Reply handle(IdempotencyRequest request, Mutation mutation) throws SQLException {
                    Reply reply = super.handle(request, mutation);
                    return reply.status() >= 400 && reply.status() < 500
                        ? Reply.of(400, "{\"error\":\"bad request\"}")
                        : reply;
                  }
                })
        .build();
  }

  /** Properties for {@link #emptyKeySharedEveryRefusalAlike}: every refusal is a 400. */
  public static final Map<String, String> EVERY_REFUSAL_400 =
      Map.of(
          "require-key", "false",
          "status.mismatch", "400",
          "status.invalid-key", "400",
          "status.in-progress", "400");

  /** Properties for {@link #emptyKeySharedUsedKeyAnswered400}: a mismatch is a 400. */
  public static final Map<String, String> USED_KEY_400 = Map.of("status.mismatch", "400");

  /**
   * Every identical retry answered 422 (the fingerprint covers something that changes), and a 5xx
   * after commit hands the key back although the effect happened: a retry after it charges again.
   * The duplicate is a flaw of its own, not a consequence of the failed basic replay.
   */
  public static ReferenceServer duplicatesAfter5xxWhileEveryRetryIsRejected() {
    return ReferenceServer.builder()
        .flow(
            ctx ->
                new NonAtomicFlow(ctx) {
                  @Override
                  boolean sameRequest(String storedHash, String requestHash) {
                    return false;
                  }
                })
        .build();
  }

  /**
   * The reference server with one more hook: {@code GET /_test/charges-total} → {@code
   * {"total":N}}, the charges created in all — blind to refunds, the second operation the reference
   * profile declares.
   */
  public static ReferenceServer counterBlindToRefunds() {
    return ReferenceServer.builder()
        .hooks(
            base ->
                new TestHooks(base) {
                  @Override
                  Reply handle(String method, URI uri, byte[] body) throws SQLException {
                    if ((method + " " + uri.getPath()).equals("GET /_test/charges-total")) {
                      return Reply.of(200, "{\"total\":" + charges(db) + "}");
                    }
                    return super.handle(method, uri, body);
                  }
                })
        .build();
  }

  /** Properties declaring {@link #counterBlindToRefunds}'s counter as the only one. */
  public static final Map<String, String> CHARGES_ONLY_COUNTER =
      Map.of(
          "effects.count", "",
          "effects.total", "GET /_test/charges-total",
          "effects.total.pointer", "/total");

  private static long charges(Database db) throws SQLException {
    try (Tx tx = db.begin();
        PreparedStatement select =
            tx.connection().prepareStatement("select count(*) from charges");
        ResultSet rs = select.executeQuery()) {
      rs.next();
      long n = rs.getLong(1);
      tx.commit();
      return n;
    }
  }

  /**
   * Its {@code hang} fault charges first, then never answers (the charge committed, the key left
   * pending): not the hang the suite's lock cases need, which holds before committing.
   */
  public static ReferenceServer hangCommitsFirst() {
    return ReferenceServer.builder()
        .flow(
            ctx ->
                new IdempotencyFlow(ctx) {
                  @Override
                  Reply execute(IdempotencyRequest r, String owner, Mutation mutation)
                      throws SQLException {
                    if (!is(ctx.faults().peek(), Fault.Kind.HANG)) {
                      return super.execute(r, owner, mutation);
                    }
                    ctx.faults().poll();
                    try (Tx tx = ctx.db().begin()) {
                      mutation.run(tx.connection(), ctx.clock().instant());
                      tx.commit();
                    }
                    awaitClose();
                    return Reply.dropped();
                  }
                })
        .build();
  }

  /**
   * Its {@code delay} fault commits the charge and its stored outcome first, then holds the answer:
   * a request it delays can no longer be fenced off, so the lock cases would blame the server.
   */
  public static ReferenceServer delayCommitsFirst() {
    return ReferenceServer.builder()
        .flow(
            ctx ->
                new IdempotencyFlow(ctx) {
                  @Override
                  Reply execute(IdempotencyRequest r, String owner, Mutation mutation)
                      throws SQLException {
                    Fault fault = ctx.faults().peek();
                    if (!is(fault, Fault.Kind.DELAY)) {
                      return super.execute(r, owner, mutation);
                    }
                    ctx.faults().poll();
                    Outcome outcome;
                    try (Tx tx = ctx.db().begin()) {
                      outcome = mutation.run(tx.connection(), ctx.clock().instant());
                      complete(tx.connection(), r, owner, outcome);
                      tx.commit();
                    }
                    pause(fault);
                    return Reply.of(outcome, false);
                  }
                })
        .build();
  }
}
