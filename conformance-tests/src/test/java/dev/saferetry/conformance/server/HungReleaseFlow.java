package dev.saferetry.conformance.server;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Correct, but shaped differently from the reference: a retry never takes over a pending record;
 * instead the server itself ends a hung request once its lock timeout passed — it releases the key
 * and closes the hung request's connection. {@link #reap} runs whenever the clock hook moves the
 * clock, and every 50 ms of real time.
 */
final class HungReleaseFlow extends IdempotencyFlow {
  private record Hung(
      IdempotencyRequest request, String owner, Instant since, CountDownLatch end) {}

  private final Map<String, Hung> hung = new ConcurrentHashMap<>();

  HungReleaseFlow(FlowContext ctx) {
    super(ctx);
  }

  @Override
  boolean stale(KeyRecord record, Instant now) {
    return false; // no takeover: only the server's own timeout ends a claim
  }

  @Override
  Reply execute(IdempotencyRequest r, String owner, Mutation mutation) throws SQLException {
    if (!is(ctx.faults().peek(), Fault.Kind.HANG)) {
      return super.execute(r, owner, mutation);
    }
    ctx.faults().poll();
    Hung h = new Hung(r, owner, ctx.clock().instant(), new CountDownLatch(1));
    hung.put(owner, h);
    try {
      while (!h.end().await(50, TimeUnit.MILLISECONDS) && ctx.closing().getCount() > 0) {
        reap();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Reply.dropped(); // the hung request's connection is closed, nothing was committed
  }

  /** Releases every hung claim older than the lock timeout. */
  void reap() throws SQLException {
    Instant now = ctx.clock().instant();
    for (Hung h : hung.values()) {
      if (!h.since().plus(ctx.lockTimeout()).isAfter(now) && hung.remove(h.owner()) != null) {
        release(h.request(), h.owner());
        h.end().countDown();
      }
    }
  }
}
