package dev.saferetry.examples;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.h2.api.Trigger;

/**
 * A failure hook for the example receiver, from outside it: an H2 trigger on its {@code order_jobs}
 * table — the last write of an applied event, after the order changed — throws once when armed by
 * {@code POST /fail-next}. The receiver's transaction then rolls back and it answers 500, as it
 * would when its database failed mid-way.
 */
final class FailNextHook implements AutoCloseable {
  private static final Map<String, AtomicBoolean> ARMED = new ConcurrentHashMap<>();
  // Upper case: H2 folds the unquoted name, and init() receives it folded.
  private final String trigger =
      "FAIL_NEXT_" + UUID.randomUUID().toString().replace("-", "").toUpperCase(Locale.ROOT);
  private final String jdbcUrl;
  private final HttpServer server;

  /** Installs the trigger in the receiver's database and serves the hook on loopback. */
  FailNextHook(String jdbcUrl) throws SQLException, IOException {
    this.jdbcUrl = jdbcUrl;
    ARMED.put(trigger, new AtomicBoolean());
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TRIGGER "
              + trigger
              + " BEFORE INSERT ON order_jobs FOR EACH ROW CALL '"
              + Fail.class.getName()
              + "'");
    }
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext(
        "/fail-next",
        exchange -> {
          try (exchange) {
            boolean post = exchange.getRequestMethod().equals("POST");
            if (post) {
              ARMED.get(trigger).set(true);
            }
            exchange.sendResponseHeaders(post ? 204 : 405, -1);
          }
        });
    server.start();
  }

  /** The hook as the suite declares it: {@code POST http://127.0.0.1:port/fail-next}. */
  String declaration() {
    return "POST http://127.0.0.1:" + server.getAddress().getPort() + "/fail-next";
  }

  @Override
  public void close() throws SQLException {
    server.stop(0);
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute("DROP TRIGGER IF EXISTS " + trigger);
    }
    ARMED.remove(trigger);
  }

  /** The trigger H2 instantiates: fails the insert once after the hook was armed. */
  public static final class Fail implements Trigger {
    private AtomicBoolean armed = new AtomicBoolean();

    @Override
    public void init(
        Connection conn, String schema, String name, String table, boolean before, int type) {
      armed = ARMED.getOrDefault(name, armed);
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
      if (armed.getAndSet(false)) {
        throw new SQLException("injected failure", "58000");
      }
    }
  }
}
