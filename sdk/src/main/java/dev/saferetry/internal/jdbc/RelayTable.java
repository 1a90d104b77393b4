package dev.saferetry.internal.jdbc;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.HeldIntent;
import dev.saferetry.jdbc.HoldReason;
import dev.saferetry.jdbc.Lease;
import dev.saferetry.jdbc.LeasedIntent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbox's operations on the key store's table: claims under a lease, and fenced changes.
 *
 * <p>Every change made on behalf of a lease names the intent, its key and the lease's token, and
 * increments the token; a change with a stale token matches no row and is refused. A claim locks
 * the due rows it takes with {@code FOR UPDATE SKIP LOCKED} (rows another claimer holds are passed
 * over, not waited for; H2 locks every row the query reads, so there two claims take turns) and
 * still checks the token it read in each update.
 *
 * <p>Thread-safe: all state is in the database and the caller's connection.
 */
public final class RelayTable {
  private static final int MAX_NOTE = 1000;
  private static final String FENCE =
      " WHERE tenant = ? AND operation = ? AND intent_id = ? AND idempotency_key = ?"
          + " AND lease_token = ? AND relay_state = 0";
  private static final String RELEASE =
      ", lease_owner = NULL, lease_expires_ns = NULL, lease_token = lease_token + 1";

  private final String claimSelect;
  private final String claimUpdate;
  private final String complete;
  private final String retryAt;
  private final String hold;
  private final String renew;
  private final String holdOverdue;
  private final String held;

  /** The outbox on the table {@code name} in {@code schema} (null: the connection's). */
  public RelayTable(String schema, String name) {
    String t = SqlNames.qualify(schema, name);
    String select = "SELECT " + IntentSql.RECORD + ", " + IntentSql.RELAY + " FROM " + t;
    claimSelect =
        select
            + " WHERE relay_state = 0 AND next_attempt_ns <= ? AND expires_at_ns > ?"
            + " AND (lease_expires_ns IS NULL OR lease_expires_ns <= ?)"
            + " ORDER BY next_attempt_ns LIMIT ? FOR UPDATE SKIP LOCKED";
    held = select + " WHERE relay_state = 2 ORDER BY created_at_ns, tenant, operation, intent_id";
    String update = "UPDATE " + t + " SET ";
    claimUpdate =
        update
            + "lease_owner = ?, lease_expires_ns = ?, lease_token = lease_token + 1,"
            + " attempts = attempts + 1"
            + FENCE;
    complete =
        update
            + "state = ?, status = ?, resource_id = ?, relay_state = ?, hold_reason = ?,"
            + " relay_note = ?"
            + RELEASE
            + FENCE;
    retryAt = update + "next_attempt_ns = ?, relay_note = ?" + RELEASE + FENCE;
    hold = update + "relay_state = 2, hold_reason = ?, relay_note = ?" + RELEASE + FENCE;
    renew = update + "lease_expires_ns = ?" + FENCE;
    holdOverdue =
        update
            + "relay_state = 2, hold_reason = 1, relay_note = ?"
            + RELEASE
            + " WHERE relay_state = 0 AND state = 0"
            + " AND (lease_expires_ns IS NULL OR lease_expires_ns <= ?)"
            + " AND (expires_at_ns <= ? OR created_at_ns <= ?)";
  }

  /** Claims up to {@code limit} due intents for {@code owner}; run in a transaction. */
  public List<LeasedIntent> claim(
      Connection c, String owner, Instant now, Instant leaseEnd, int limit) throws SQLException {
    long at = IntentRows.nanos("now", now);
    List<LeasedIntent> due = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(claimSelect)) {
      ps.setLong(1, at);
      ps.setLong(2, at);
      ps.setLong(3, at);
      ps.setInt(4, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          IntentRecord r = IntentRows.read(rs);
          Lease lease =
              new Lease(r.scope(), r.intentId(), r.key(), owner, rs.getLong(20) + 1, leaseEnd);
          due.add(new LeasedIntent(r, IntentRows.readRequest(rs, 11), lease, rs.getInt(19) + 1));
        }
      }
    }
    List<LeasedIntent> claimed = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(claimUpdate)) {
      for (LeasedIntent d : due) {
        ps.setString(1, StoredText.check("owner", owner, 128));
        ps.setLong(2, IntentRows.nanos("lease end", leaseEnd));
        bindFence(ps, 3, d.lease(), d.lease().token() - 1);
        if (ps.executeUpdate() == 1) {
          claimed.add(d);
        }
      }
    }
    return claimed;
  }

  /** Records the outcome; a failure holds the intent as {@link HoldReason#REJECTED}. */
  public boolean complete(Connection c, Lease lease, IntentRecord outcome, String note)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(complete)) {
      boolean rejected = outcome.state() == IntentState.FAILED;
      ps.setInt(1, IntentRows.code(outcome.state()));
      ps.setInt(2, outcome.status());
      ps.setString(
          3, StoredText.check("resource id", outcome.resourceId(), IntentRows.MAX_RESOURCE_ID));
      ps.setInt(4, rejected ? RelayCodes.HELD : RelayCodes.DONE);
      if (rejected) {
        ps.setInt(5, RelayCodes.code(HoldReason.REJECTED));
      } else {
        ps.setNull(5, Types.SMALLINT);
      }
      ps.setString(6, note(note));
      bindFence(ps, 7, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Releases the lease and makes the intent due again at {@code next}. */
  public boolean retryAt(Connection c, Lease lease, Instant next, String note) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(retryAt)) {
      ps.setLong(1, IntentRows.nanos("next attempt", next));
      ps.setString(2, note(note));
      bindFence(ps, 3, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Releases the lease and holds the intent for a person. */
  public boolean hold(Connection c, Lease lease, HoldReason reason, String note)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(hold)) {
      ps.setInt(1, RelayCodes.code(reason));
      ps.setString(2, note(note));
      bindFence(ps, 3, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /** Moves the lease's end to {@code leaseEnd}, keeping its token. */
  public boolean renew(Connection c, Lease lease, Instant leaseEnd) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(renew)) {
      ps.setLong(1, IntentRows.nanos("lease end", leaseEnd));
      bindFence(ps, 2, lease, lease.token());
      return ps.executeUpdate() == 1;
    }
  }

  /**
   * Holds, as {@link HoldReason#EXPIRED}, every queued intent no one holds a live lease on that is
   * past its record's expiry or created at or before {@code oldest}.
   */
  public int holdOverdue(Connection c, Instant now, Instant oldest) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(holdOverdue)) {
      ps.setString(1, "outlived its retention or the relay's maximum age");
      ps.setLong(2, IntentRows.nanos("now", now));
      ps.setLong(3, IntentRows.nanos("now", now));
      ps.setLong(4, IntentRows.nanos("oldest", oldest));
      return ps.executeUpdate();
    }
  }

  /** Every intent held for a person, oldest first. */
  public List<HeldIntent> held(Connection c) throws SQLException {
    List<HeldIntent> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(held);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(
            new HeldIntent(
                IntentRows.read(rs),
                IntentRows.readRequest(rs, 11),
                RelayCodes.reason(rs.getInt(17)),
                rs.getString(18),
                rs.getInt(19)));
      }
    }
    return out;
  }

  private static void bindFence(PreparedStatement ps, int at, Lease lease, long token)
      throws SQLException {
    IntentRows.bindPk(ps, at, lease.scope(), lease.intentId());
    ps.setString(at + 3, lease.key().value());
    ps.setLong(at + 4, token);
  }

  /**
   * A note is for people and logs: control characters and unpaired surrogates become spaces, and it
   * is cut to {@value #MAX_NOTE} characters.
   */
  private static String note(String note) {
    if (note == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(Math.min(note.length(), MAX_NOTE));
    note.codePoints()
        .limit(MAX_NOTE / 2)
        .forEach(
            cp ->
                out.appendCodePoint(
                    Character.isISOControl(cp) || (cp >= 0xD800 && cp <= 0xDFFF) ? ' ' : cp));
    return out.toString();
  }
}
