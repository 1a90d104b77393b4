package dev.saferetry.examples.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.examples.ChargeRelay;
import dev.saferetry.examples.Outbox;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The drill around the {@link Outbox} example: a database (H2, or a fresh schema of a PostgreSQL
 * one), {@value #ORDERS} orders placed with their charge intents (every fourth rolled back), an
 * in-process payment API, {@link ChargeRelay} process 1 killed with SIGKILL while the API holds one
 * of its charges, process 2 finishing; then the verdict.
 */
public final class OutboxDrill {
  /** Orders placed; every fourth one is rolled back. */
  public static final int ORDERS = 12;

  /** The form of the database argument. */
  public static final String URL_FORMAT =
      "jdbc:postgresql://HOST:PORT/DATABASE?user=USER&password=PASSWORD";

  private OutboxDrill() {}

  /**
   * What a run found.
   *
   * @param committed orders committed with their intent
   * @param rolledBack orders rolled back with their intent
   * @param charges charges the API made
   * @param chargedOrders committed orders whose intent succeeded with a charge of its own
   * @param pendingLeft intents still pending at the end
   * @param sentByFirstRelay charges the first relay completed before it was killed
   * @param verdict the verdict line
   */
  public record Result(
      int committed,
      int rolledBack,
      long charges,
      int chargedOrders,
      int pendingLeft,
      int sentByFirstRelay,
      String verdict) {
    /** {@return whether every committed order was charged once and no rolled-back order was} */
    public boolean ok() {
      return verdict.startsWith("VERDICT: OK");
    }
  }

  /** {@return a store on {@code db} whose outbox rows are sealed with {@link SealKey}} */
  public static JdbcKeyStore store(javax.sql.DataSource db) {
    return SealKey.store(db);
  }

  /**
   * {@return a small connection pool on {@code url}}
   *
   * @param url the JDBC URL
   * @param size the most connections
   */
  public static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    return new HikariDataSource(config);
  }

  /**
   * Runs the drill on H2 ({@code jdbcUrl} null) or in a fresh schema of a PostgreSQL database,
   * printing the relays' lines to {@code out}.
   *
   * @param jdbcUrl a PostgreSQL database, or null for an embedded H2 one
   * @param out where the relays' lines go
   * @return what the run found
   * @throws Exception if the drill itself fails
   */
  public static Result run(String jdbcUrl, PrintStream out) throws Exception {
    if (jdbcUrl != null && !jdbcUrl.startsWith("jdbc:postgresql://")) {
      throw new IllegalArgumentException(
          "the argument is a PostgreSQL JDBC URL, " + URL_FORMAT + ", or nothing (embedded H2)");
    }
    Path dir = Files.createTempDirectory("saferetry-outbox");
    String schema = "outbox_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String url;
    if (jdbcUrl == null) {
      url = "jdbc:h2:file:" + dir.resolve("shop") + ";AUTO_SERVER=TRUE";
      out.println("database: embedded H2, " + url);
      out.println("  (for PostgreSQL, give its URL as the argument: " + URL_FORMAT + ")");
    } else {
      try (Connection c = DriverManager.getConnection(jdbcUrl);
          Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA " + schema);
      }
      url = jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
      out.println("database: PostgreSQL, " + redacted(jdbcUrl) + ", new schema " + schema);
    }
    try (PaymentApi api = new PaymentApi();
        HikariDataSource pool = pool(url, 4);
        JdbcKeyStore store =
            JdbcKeyStore.builder()
                .dataSource(pool)
                .createSchema(true)
                .outboxSealKey(SealKey.ID, SealKey.secret())
                .build()) {
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE orders (id INT PRIMARY KEY, amount BIGINT NOT NULL)");
      }
      int rolledBack = 0;
      for (int n = 1; n <= ORDERS; n++) {
        rolledBack += Outbox.placeOrder(pool, store, n, n % 4 == 0) ? 0 : 1;
      }
      int committed = ORDERS - rolledBack;

      // Relay 1 sends a few charges; the API holds the next one while relay 1 is killed.
      Process first = startRelay(url, api.baseUrl(), "relay-1");
      BlockingQueue<String> lines = lines(first);
      int sent = 0;
      while (sent < 3) {
        String line = lines.poll(60, TimeUnit.SECONDS);
        if (line == null) {
          break;
        }
        out.println("  relay-1: " + line);
        sent += line.startsWith("sent ") ? 1 : 0;
      }
      PaymentApi.HeldRequest hold = api.holdNext();
      boolean held = hold.await(Duration.ofSeconds(30));
      first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      for (String l = lines.poll(); l != null; l = lines.poll()) {
        out.println("  relay-1: " + l);
        sent += l.startsWith("sent ") ? 1 : 0;
      }
      out.println(
          "  relay-1 killed (SIGKILL, exit " + first.exitValue() + ") with a charge in flight");
      hold.release(); // the API completes that charge; its answer has nowhere to go

      Process second = startRelay(url, api.baseUrl(), "relay-2");
      BlockingQueue<String> more = lines(second);
      boolean finished = second.waitFor(90, TimeUnit.SECONDS);
      for (String l = more.poll(1, TimeUnit.SECONDS);
          l != null;
          l = more.poll(1, TimeUnit.SECONDS)) {
        out.println("  relay-2: " + l);
      }
      if (!finished) {
        second.destroyForcibly().waitFor();
      }
      return verdict(store, api, committed, rolledBack, sent, held && finished);
    } finally {
      if (jdbcUrl != null) {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
      }
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static Result verdict(
      JdbcKeyStore store,
      PaymentApi api,
      int committed,
      int rolledBack,
      int sentByFirst,
      boolean ranThrough) {
    Set<String> chargeIds = new HashSet<>();
    int charged = 0;
    int stray = 0;
    for (int n = 1; n <= ORDERS; n++) {
      var intent = store.find(Outbox.SCOPE, "order-" + n);
      if (n % 4 == 0) {
        stray += intent.isPresent() ? 1 : 0;
      } else if (intent.isPresent() && intent.get().resourceId() != null) {
        charged += chargeIds.add(intent.get().resourceId()) ? 1 : 0;
      }
    }
    int pending = store.pending().size();
    long charges = api.chargesCreated();
    boolean ok =
        ranThrough
            && charged == committed
            && charges == committed
            && stray == 0
            && pending == 0
            && sentByFirst > 0
            && sentByFirst < committed;
    String line =
        String.format(
            "VERDICT: %s — %d orders committed, %d charges made (%d orders charged once each);"
                + " %d orders rolled back, %d of them with an intent left; relay 1 killed"
                + " (SIGKILL) after %d charges, relay 2 finished; %d intents pending",
            ok ? "OK" : "FAILED",
            committed,
            charges,
            charged,
            rolledBack,
            stray,
            sentByFirst,
            pending);
    return new Result(committed, rolledBack, charges, charged, pending, sentByFirst, line);
  }

  private static Process startRelay(String url, String apiUrl, String name) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            List.of(
                java,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                ChildJava.classPath(ChargeRelay.class),
                ChargeRelay.class.getName(),
                url,
                apiUrl,
                name))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }

  /** The process's output lines, read on a thread of their own. */
  private static BlockingQueue<String> lines(Process p) {
    BlockingQueue<String> out = new LinkedBlockingQueue<>();
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l = in.readLine(); l != null; l = in.readLine()) {
                  out.add(l);
                }
              } catch (IOException e) {
                // the process was killed
              }
            });
    t.setDaemon(true);
    t.start();
    return out;
  }

  /** The URL as printed: without the password's value. */
  static String redacted(String jdbcUrl) {
    return jdbcUrl.replaceAll("(?i)(password=)[^&;]*", "$1***");
  }
}
