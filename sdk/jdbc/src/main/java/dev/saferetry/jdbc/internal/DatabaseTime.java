package dev.saferetry.jdbc.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The database's clock, the one clock every instance sharing a table reads alike: every retention,
 * expiry and age decision of the stores is made at it, never at the clock of the host that asks.
 *
 * <p>A reading serves for {@link #READING_NANOS} afterwards, advanced by this process's monotonic
 * clock ({@link System#nanoTime()}), so that a store does not query the clock for every intent. A
 * reading is bracketed by when its query was sent and when its answer arrived, which gives two
 * estimates of the database's time later on: {@link #notBefore} never runs ahead of the database's
 * clock (the time a record is created at, and the time a completed record's expiry is judged at: it
 * never expires early), and {@link #notAfter} never runs behind it (the time a pending intent's
 * expiry is judged at: a stale key is never re-sent late). Both hold unless the database's clock is
 * stepped within the second.
 *
 * <p>Thread-safe.
 */
public final class DatabaseTime {
  /** How long a reading stands in for another query. */
  static final long READING_NANOS = 1_000_000_000L;

  /**
   * A reading: the database's time, and when (by {@link System#nanoTime()}) its query was sent and
   * its answer received.
   */
  private record Reading(Instant at, long sent, long received) {}

  private final Dialect dialect;
  private final AtomicReference<Reading> last = new AtomicReference<>();

  public DatabaseTime(Dialect dialect) {
    this.dialect = dialect;
  }

  /**
   * The database's time, at least: from a reading less than a second old, else null (read one with
   * {@link #read}).
   */
  public Instant notBefore() {
    Reading r = last.get();
    if (r == null) {
      return null;
    }
    long elapsed = System.nanoTime() - r.received();
    return elapsed >= 0 && elapsed < READING_NANOS ? r.at().plusNanos(elapsed) : null;
  }

  /**
   * The database's time, at most: from a reading less than a second old, else null (read one with
   * {@link #read}).
   */
  public Instant notAfter() {
    Reading r = last.get();
    if (r == null) {
      return null;
    }
    long elapsed = System.nanoTime() - r.sent();
    return elapsed >= 0 && elapsed < READING_NANOS ? r.at().plusNanos(elapsed) : null;
  }

  /**
   * Reads the database's clock on {@code c}: inside a transaction, the time that transaction judges
   * by (PostgreSQL: the wall clock at the read; MariaDB: the statement's time; H2: the
   * transaction's start). The reading serves later estimates unless it may be a transaction's start
   * ({@code fresh} false on H2), which could be long past.
   *
   * @param fresh whether {@code c} is in auto-commit mode (the reading is the time now)
   */
  public Instant read(Connection c, boolean fresh) throws SQLException {
    long sent = System.nanoTime();
    Instant at = query(c, dialect);
    if (fresh || dialect != Dialect.H2) {
      last.set(new Reading(at, sent, System.nanoTime()));
    }
    return at;
  }

  /** Reads the database's clock on {@code c} once, without keeping the reading. */
  public static Instant query(Connection c, Dialect dialect) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(dialect.clockQuery())) {
      if (!rs.next()) {
        throw new SQLException("the database returned no time");
      }
      BigDecimal seconds = rs.getBigDecimal(1);
      if (seconds == null) {
        throw new SQLException("the database returned no time");
      }
      BigDecimal whole = seconds.setScale(0, RoundingMode.FLOOR);
      int nanos = seconds.subtract(whole).movePointRight(9).intValue();
      return Instant.ofEpochSecond(whole.longValueExact(), nanos);
    }
  }
}
