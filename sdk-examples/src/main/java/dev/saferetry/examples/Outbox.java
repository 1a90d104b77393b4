package dev.saferetry.examples;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.Outcome;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.harness.ChildJava;
import dev.saferetry.examples.harness.PaymentApi;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.JdbcKeyStore;
import dev.saferetry.jdbc.OutboxRelay;
import dev.saferetry.jdbc.RelayPass;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The transactional outbox across processes: orders and their charge intents are committed in one
 * database transaction (some orders roll back), a relay process sends the charges, is killed with
 * SIGKILL in the middle of a charge, and a second relay process finishes the work. Prints one
 * verdict line — one charge per committed order, none for a rolled-back one — and exits with 1
 * otherwise.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.Outbox
 * #   [-Dexec.args=jdbc:postgresql://127.0.0.1:5432/test?user=postgres]   (a fresh schema in it)
 * </pre>
 *
 * <p>Without an argument the database is an embedded H2 file database that the relay processes open
 * too ({@code AUTO_SERVER}); the payment API is the in-process Stripe-shaped server.
 */
public final class Outbox {
  static final int ORDERS = 12;
  static final IntentScope SCOPE = new IntentScope(IntentScope.DEFAULT_TENANT, "create-charge");

  private Outbox() {}

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
    /** Whether every committed order was charged once and no rolled-back order was. */
    public boolean ok() {
      return verdict.startsWith("VERDICT: OK");
    }
  }

  /** {@code [jdbc-url]}: runs the drill; {@code relay DB-URL API-URL NAME}: one relay process. */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("relay")) {
      relay(args[1], args[2], args[3]);
      return;
    }
    Result r = run(args.length > 0 ? args[0] : null, System.out);
    System.out.println(r.verdict());
    System.exit(r.ok() ? 0 : 1);
  }

  /**
   * Runs the drill on H2 ({@code jdbcUrl} null) or in a fresh schema of a PostgreSQL database,
   * printing the relays' lines to {@code out}.
   */
  public static Result run(String jdbcUrl, PrintStream out) throws Exception {
    Path dir = Files.createTempDirectory("saferetry-outbox");
    String schema = "outbox_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String url;
    if (jdbcUrl == null) {
      url = "jdbc:h2:file:" + dir.resolve("shop") + ";AUTO_SERVER=TRUE";
    } else {
      try (Connection c = DriverManager.getConnection(jdbcUrl);
          Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA " + schema);
      }
      url = jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }
    try (PaymentApi api = new PaymentApi();
        HikariDataSource pool = pool(url, 4);
        JdbcKeyStore store = JdbcKeyStore.builder(pool).createSchema(true).build()) {
      int rolledBack = placeOrders(pool, store);
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
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * Each order and its charge intent in one transaction; every fourth order fails after both were
   * written and is rolled back. Returns how many rolled back.
   */
  static int placeOrders(HikariDataSource pool, JdbcKeyStore store) throws Exception {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id INT PRIMARY KEY, amount BIGINT NOT NULL)");
    }
    int rolledBack = 0;
    for (int n = 1; n <= ORDERS; n++) {
      long amount = 1000L + n;
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
          insert.setInt(1, n);
          insert.setLong(2, amount);
          insert.executeUpdate();
        }
        byte[] body =
            ("amount="
                    + amount
                    + "&currency=eur&description=order-"
                    + n
                    + "&metadata%5Border_id%5D="
                    + n)
                .getBytes(StandardCharsets.UTF_8);
        StoredRequest charge =
            new StoredRequest(
                "POST",
                "v1/charges",
                KeyPlacement.header(),
                Map.of(),
                "application/x-www-form-urlencoded",
                body);
        IntentRecord intent =
            IntentRecord.pending(
                SCOPE,
                "order-" + n,
                IdempotencyKey.random(),
                "order-" + n + ":" + amount,
                Instant.now(),
                Duration.ofHours(24));
        store.outbox().enqueue(c, intent, charge, Instant.now());
        if (n % 4 == 0) {
          c.rollback(); // e.g. the stock check failed: neither the order nor its charge exists
          rolledBack++;
        } else {
          c.commit();
        }
      }
    }
    return rolledBack;
  }

  /** One relay process: sends until no intent is pending, printing each attempt and charge. */
  static void relay(String url, String apiUrl, String name) throws Exception {
    SafeRetryListener print =
        new SafeRetryListener() {
          @Override
          public void onAttemptStart(AttemptStarted e) {
            say("sending " + e.intentId() + " attempt " + e.attempt() + " key " + e.key());
          }

          @Override
          public void onCallEnd(CallFinished e) {
            say((e.outcome() == Outcome.SUCCEEDED ? "sent " : "ended ") + e.intentId());
          }
        };
    try (HikariDataSource pool = pool(url, 2);
        JdbcKeyStore store = JdbcKeyStore.builder(pool).build();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(apiUrl)
                .apiKey("sk_test_outbox")
                .keyStore(store)
                .listener(print)
                .build()) {
      OutboxRelay relay =
          OutboxRelay.builder(store, client)
              .owner(name)
              .batchSize(1)
              .leaseFor(Duration.ofSeconds(2)) // short, so that relay 2 soon takes over
              .backoff(Duration.ofMillis(200), Duration.ofSeconds(2))
              .build();
      while (true) {
        RelayPass pass = relay.runOnce();
        if (pass.claimed() == 0) {
          if (store.pending().isEmpty()) {
            say("nothing left to send");
            return;
          }
          Thread.sleep(200); // an intent under another relay's lease, or backing off
        } else {
          Thread.sleep(150); // a slow relay, so that the drill can kill it half-way
        }
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
      var intent = store.find(SCOPE, "order-" + n);
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

  private static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    return new HikariDataSource(config);
  }

  private static Process startRelay(String url, String apiUrl, String name) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            List.of(
                java,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                ChildJava.classPath(Outbox.class),
                Outbox.class.getName(),
                "relay",
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

  private static void say(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }
}
