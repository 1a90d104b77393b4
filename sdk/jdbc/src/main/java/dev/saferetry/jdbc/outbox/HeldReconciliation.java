package dev.saferetry.jdbc.outbox;

import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.internal.outbox.RelayTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A relay's reconciliation of held intents: a walk through the held, still pending intents of the
 * relay's tenants and reconciled operations, a page per pass of at most the relay's budget, records
 * only (never a stored request), resumed by the next pass where this one stopped. A walk that
 * reached the end starts again from the first held intent once the longest backoff has gone by
 * since it began, by the relay's clock (a walk that met nothing starts again at once): every held
 * intent is reconciled at most once per longest backoff, and however many are held, a pass reads
 * and reconciles at most the budget.
 */
final class HeldReconciliation {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.relay");

  private final RelayLeases leases;
  private final Map<String, SafeRetryClient> clients;
  private final Map<String, Reconciler> reconcilers;
  private final List<String> tenants;
  private final List<String> operations;
  private final int budget;
  private final Duration every;
  private final Clock clock;

  // Touched by one pass at a time (runOnce is serialised on this object).
  private RelayTable.HeldCursor cursor;
  private Instant walkBegan;
  private boolean walkMetAny;
  private Instant nextWalk;

  /** Rows read by the last pass, for tests. */
  private volatile int lastRows;

  HeldReconciliation(
      RelayLeases leases,
      Map<String, SafeRetryClient> clients,
      Map<String, Reconciler> reconcilers,
      int budget,
      Duration every,
      Clock clock) {
    this.leases = leases;
    this.clients = clients;
    this.reconcilers = reconcilers;
    this.tenants = List.copyOf(clients.keySet());
    this.operations = List.copyOf(reconcilers.keySet());
    this.budget = budget;
    this.every = every;
    this.clock = clock;
  }

  /** How many held rows the last pass read. */
  int lastRows() {
    return lastRows;
  }

  /**
   * Reconciles the next page of held intents; returns how many were found at the provider. What a
   * lookup throws (an {@link Error} too) is logged and ends this pass's page, never the relay.
   */
  synchronized int pass() {
    lastRows = 0;
    if (operations.isEmpty()) {
      return 0;
    }
    Instant now = clock.instant();
    if (cursor == null) {
      if (nextWalk != null && now.isBefore(nextWalk) && !now.isBefore(walkBegan)) {
        return 0; // every held intent was reconciled less than a backoff ago
      }
      walkBegan = now;
      walkMetAny = false;
      nextWalk = null;
    }
    RelayTable.HeldPage page = leases.heldToReconcile(tenants, operations, cursor, budget);
    lastRows = page.rows();
    if (page.rows() > 0) {
      walkMetAny = true;
    }
    if (page.rows() < budget) {
      cursor = null; // the walk reached the end: the next one begins a backoff after this one
      nextWalk = walkMetAny ? walkBegan.plus(every) : null;
    } else {
      cursor = page.last();
    }
    int found = 0;
    for (IntentRecord record : page.records()) {
      Reconciler reconciler = reconcilers.get(record.scope().operation());
      SafeRetryClient client = clients.get(record.scope().tenant());
      if (reconciler == null || client == null) {
        continue;
      }
      Reconciliation result;
      try {
        result = client.reconcile(record, reconciler);
      } catch (RuntimeException | Error e) {
        LOG.warn("could not reconcile held intent {}: {}", record.intentId(), e.toString());
        continue;
      }
      LOG.info("held intent {} reconciled: {}", record.intentId(), result);
      if (result.found()) {
        found++;
      }
    }
    return found;
  }
}
