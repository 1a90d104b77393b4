package dev.saferetry.examples.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Part of the {@link dev.saferetry.examples.WebhookReceiver} example: the receiver's business
 * tables: {@code orders}, changed by charge events, and {@code order_jobs}, the queue that the slow
 * follow-up work (receipts, fulfilment) goes through so the webhook can be answered at once. Plain
 * JDBC; every write takes the caller's transaction.
 *
 * <p>Thread-safe: it keeps no state besides the JDBC URL.
 */
public final class OrderBook {
  private final String jdbcUrl;

  private OrderBook(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  /** Creates the tables if they are missing. */
  public static OrderBook open(String jdbcUrl) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS orders (order_id VARCHAR(255) PRIMARY KEY,"
              + " charge_id VARCHAR(255) NOT NULL, status VARCHAR(16) NOT NULL,"
              + " amount BIGINT NOT NULL, amount_refunded BIGINT NOT NULL,"
              + " currency VARCHAR(3) NOT NULL)");
      s.execute(
          "CREATE TABLE IF NOT EXISTS order_jobs (event_id VARCHAR(255) PRIMARY KEY,"
              + " order_id VARCHAR(255) NOT NULL, kind VARCHAR(32) NOT NULL)");
    }
    return new OrderBook(jdbcUrl);
  }

  /**
   * Merges a charge event into its order, creating the order if this is the first event about it,
   * and queues the follow-up work if the order changed. For the order's current charge a refund is
   * final and the refunded amount only grows, so events of one charge end in the same state in any
   * order (two in the same second, say); an event about another charge replaces it. Callers
   * serialise events of one order (the inbox's high-water mark row lock does), so the
   * read-then-write cannot race.
   */
  public void apply(Connection tx, String eventId, ChargeEvent e) throws SQLException {
    String status = e.refund() ? "refunded" : "paid";
    long refunded = e.amountRefunded();
    Charge now = current(tx, e.orderId());
    if (now != null && now.id().equals(e.chargeId())) {
      status = now.status().equals("refunded") ? "refunded" : status;
      refunded = Math.max(refunded, now.refunded());
      if (now.equals(new Charge(e.chargeId(), status, refunded))) {
        return; // nothing new about this charge
      }
    }
    Object[] row = {e.chargeId(), status, e.amount(), refunded, e.currency(), e.orderId()};
    String set = "charge_id = ?, status = ?, amount = ?, amount_refunded = ?, currency = ?";
    if (now != null) {
      update(tx, "UPDATE orders SET " + set + " WHERE order_id = ?", row);
    } else {
      update(
          tx,
          "INSERT INTO orders (charge_id, status, amount, amount_refunded, currency, order_id)"
              + " VALUES (?, ?, ?, ?, ?, ?)",
          row);
    }
    update(tx, "INSERT INTO order_jobs VALUES (?, ?, ?)", eventId, e.orderId(), "notify-" + status);
  }

  /** An order's current charge: its id, status and refunded amount. */
  private record Charge(String id, String status, long refunded) {}

  private static Charge current(Connection tx, String orderId) throws SQLException {
    String sql = "SELECT charge_id, status, amount_refunded FROM orders WHERE order_id = ?";
    try (PreparedStatement s = tx.prepareStatement(sql)) {
      s.setString(1, orderId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? new Charge(rs.getString(1), rs.getString(2), rs.getLong(3)) : null;
      }
    }
  }

  /**
   * Starts the worker that does the queued follow-up work (here: prints it) after the webhooks were
   * answered; jobs it could not take stay queued for the next round.
   */
  public ScheduledExecutorService startJobWorker() {
    ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor();
    Runnable drain =
        () -> {
          try {
            takeJobs(100).forEach(job -> System.out.println("job done: " + job));
          } catch (SQLException e) {
            System.err.println("job worker: " + e.getSQLState());
          }
        };
    worker.scheduleWithFixedDelay(drain, 200, 200, TimeUnit.MILLISECONDS);
    return worker;
  }

  /** Takes up to {@code max} queued jobs (deleting them in one transaction) and returns them. */
  List<String> takeJobs(int max) throws SQLException {
    List<String> jobs = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      c.setAutoCommit(false);
      try (PreparedStatement s =
              c.prepareStatement("SELECT event_id, order_id, kind FROM order_jobs");
          ResultSet rs = s.executeQuery()) {
        while (rs.next() && jobs.size() < max) {
          if (update(c, "DELETE FROM order_jobs WHERE event_id = ?", rs.getString(1)) == 1) {
            jobs.add(rs.getString(3) + " " + rs.getString(2));
          }
        }
      }
      c.commit();
    }
    return jobs;
  }

  /** Returns an order's status and amounts, e.g. {@code paid 1999/0 eur}, or null. */
  public String describe(String orderId) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        PreparedStatement s =
            c.prepareStatement(
                "SELECT status, amount, amount_refunded, currency FROM orders WHERE order_id = ?")) {
      s.setString(1, orderId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next()
            ? rs.getString(1) + " " + rs.getLong(2) + "/" + rs.getLong(3) + " " + rs.getString(4)
            : null;
      }
    }
  }

  private static int update(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        s.setObject(i + 1, values[i]);
      }
      return s.executeUpdate();
    }
  }
}
