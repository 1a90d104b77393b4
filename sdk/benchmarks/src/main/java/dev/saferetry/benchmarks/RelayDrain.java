package dev.saferetry.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.jdbc.outbox.OutboxRelayBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * How fast a fleet of {@link OutboxRelay}s drains a PostgreSQL outbox, through the public API with
 * the relays' default settings: a loopback provider in the same JVM answers every request at once
 * and records each idempotency key it sees. Prints, for 1, 2 and 4 relays, the intents relayed per
 * second (a backlog enqueued beforehand, then drained), the JVM's and the database's CPU per
 * intent, and any key seen twice or never; the enqueue rate (one intent per transaction, 4
 * callers); and the time from an enqueue's commit to its first request at the provider (p50, p99),
 * with 4 relays running and intents enqueued at a steady rate. A one-shot measurement, not a JMH
 * benchmark: a drain is a single event, timed once per run.
 *
 * <pre>
 * java -cp sdk/benchmarks/target/saferetry-benchmarks.jar dev.saferetry.benchmarks.RelayDrain \
 *   [--intents 5000] [--relays 1,2,4] [--rate 500] [--batch N] [--concurrency N]
 * </pre>
 *
 * <p>The database is {@code SAFERETRY_PG_URL} (default the local server); each drain uses a fresh
 * schema and drops it. The database's CPU is read from {@code /proc} (its server processes on this
 * machine), so it is shown only when the server runs here. Not thread-safe.
 */
public final class RelayDrain {
  private final String url = JdbcKeyStoreCost.url();
  private final int intents;
  private final List<Integer> fleets;
  private final int rate;
  private final UnaryOperator<OutboxRelayBuilder> settings;

  private RelayDrain(
      int intents, List<Integer> fleets, int rate, UnaryOperator<OutboxRelayBuilder> settings) {
    this.intents = intents;
    this.fleets = fleets;
    this.rate = rate;
    this.settings = settings;
  }

  /** Runs the measurement; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    int intents = 5_000;
    List<Integer> fleets = List.of(1, 2, 4);
    int rate = 500;
    UnaryOperator<OutboxRelayBuilder> settings = b -> b;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--intents" -> intents = Integer.parseInt(args[i + 1].replace("_", ""));
        case "--relays" ->
            fleets = Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
        case "--rate" -> rate = Integer.parseInt(args[i + 1]);
        case "--batch" -> {
          int n = Integer.parseInt(args[i + 1]);
          settings = andThen(settings, b -> b.batchSize(n));
        }
        case "--concurrency" -> {
          int n = Integer.parseInt(args[i + 1]);
          settings = andThen(settings, b -> b.concurrency(n));
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    System.out.printf(
        "SafeRetry outbox relay drain on PostgreSQL, %d intents (%d cores, Java %s)%n",
        intents, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    new RelayDrain(intents, fleets, rate, settings).run();
  }

  private static UnaryOperator<OutboxRelayBuilder> andThen(
      UnaryOperator<OutboxRelayBuilder> first, UnaryOperator<OutboxRelayBuilder> then) {
    return b -> then.apply(first.apply(b));
  }

  private void run() throws Exception {
    // warm-up: JIT, pools, the server's plans; not printed
    for (int relays : List.of(4, 1)) {
      try (Trial t = new Trial(url, 4)) {
        t.enqueueBacklog(Math.min(intents, 5_000));
        t.drain(relays, false);
      }
    }
    try (Trial t = new Trial(url, 4)) {
      double perSecond = t.enqueueBacklog(intents);
      System.out.printf("enqueue: %,.0f intents/s (one per transaction, 4 callers)%n", perSecond);
    }
    for (int relays : fleets) {
      try (Trial t = new Trial(url, 4)) {
        t.enqueueBacklog(intents);
        t.drain(relays, true);
      }
    }
    try (Trial t = new Trial(url, 4)) {
      t.latency(4, rate, Math.max(2_000, rate * 4));
    }
  }

  /** One fresh schema, store, provider and client. */
  private final class Trial implements AutoCloseable {
    private final String schema = "sr_drain_" + Long.toHexString(System.nanoTime());
    private final HikariDataSource pool;
    private final CountingDataSource counted;
    private final JdbcKeyStore store;
    private final Provider provider;
    private final SafeRetryClient client;
    private final Map<String, Long> committed = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    Trial(String url, int callers) throws Exception {
      execute(url, "CREATE SCHEMA " + schema);
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(url);
      config.setMaximumPoolSize(callers + 16);
      config.setMinimumIdle(callers + 16);
      config.addDataSourceProperty("ApplicationName", schema); // to find its server processes
      config.setConnectionInitSql(System.getenv("SAFERETRY_DRAIN_INIT_SQL")); // e.g. auto_explain
      pool = new HikariDataSource(config);
      counted = new CountingDataSource(pool);
      store =
          JdbcKeyStore.builder()
              .dataSource(counted)
              .schema(schema)
              .createSchema(true)
              .outboxSealKey("bench", new byte[32]) // a benchmark's key: any 32 bytes
              .build();
      provider = Provider.start();
      client =
          SafeRetryClient.builder()
              .baseUrl(provider.baseUrl())
              .apiKey("sk_test_relay_drain_0123456789")
              .keyStore(store)
              .build();
    }

    /** Enqueues {@code n} intents, one per transaction from 4 callers; returns intents/s. */
    double enqueueBacklog(int n) throws Exception {
      ExecutorService callers = Executors.newFixedThreadPool(4);
      long start = System.nanoTime();
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        int share = n / 4 + (c < n % 4 ? 1 : 0);
        done.add(
            callers.submit(
                () -> {
                  for (int i = 0; i < share; i++) {
                    enqueueOne();
                  }
                  return null;
                }));
      }
      for (var f : done) {
        f.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      callers.shutdown();
      return n / seconds;
    }

    private void enqueueOne() throws SQLException {
      int i = next.incrementAndGet();
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        var begun =
            JdbcOutbox.of(store)
                .enqueue(
                    c,
                    client,
                    Charges.CREATE,
                    new ChargeCreateParams(1000L + i, "eur", "order " + i, null),
                    RequestOptions.none().withIntentId("order-" + i),
                    Instant.now());
        c.commit();
        c.setAutoCommit(true);
        committed.put(begun.record().key().value(), System.nanoTime());
      }
    }

    /** Starts {@code relays} relays on the backlog; prints how fast they drained it. */
    void drain(int relays, boolean print) throws Exception {
      int n = committed.size();
      Cpu before = Cpu.now(backends());
      long trips = counted.roundTrips();
      long start = System.nanoTime();
      List<OutboxRelay> fleet = startRelays(relays);
      boolean all = provider.awaitKeys(n, 300_000);
      double seconds = (System.nanoTime() - start) / 1e9;
      Cpu used = Cpu.now(backends()).minus(before);
      stop(fleet);
      trips = counted.roundTrips() - trips;
      if (print) {
        System.out.printf(
            "%d relay%s: %,.0f intents/s (%d in %.2f s); CPU per intent: JVM %.2f ms,"
                + " PostgreSQL %s; %.2f relay round trips per intent; %s%n",
            relays,
            relays == 1 ? " " : "s",
            n / seconds,
            n,
            seconds,
            used.jvmNanos / 1e6 / n,
            used.db() < 0 ? "n/a" : String.format("%.2f ms", used.db() / 1e6 / n),
            trips / (double) n,
            check(all));
      }
    }

    /** Enqueues {@code n} intents at {@code perSecond} with 4 relays running; prints the delays. */
    void latency(int relays, int perSecond, int n) throws Exception {
      List<OutboxRelay> fleet = startRelays(relays);
      long start = System.nanoTime();
      long gap = 1_000_000_000L / perSecond;
      ExecutorService callers = Executors.newFixedThreadPool(4);
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        long at = start + i * gap;
        long wait = at - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        done.add(
            callers.submit(
                () -> {
                  enqueueOne();
                  return null;
                }));
      }
      for (var f : done) {
        f.get();
      }
      callers.shutdown();
      boolean all = provider.awaitKeys(n, 60_000);
      stop(fleet);
      long[] delays =
          committed.entrySet().stream()
              .mapToLong(e -> provider.firstSeen(e.getKey()) - e.getValue())
              .sorted()
              .toArray();
      System.out.printf(
          "commit to send, %d relays, %d intents/s enqueued: p50 %.1f ms, p99 %.1f ms; %s%n",
          relays,
          perSecond,
          delays[delays.length / 2] / 1e6,
          delays[(int) (delays.length * 0.99)] / 1e6,
          check(all));
    }

    private List<OutboxRelay> startRelays(int relays) {
      List<OutboxRelay> fleet = new ArrayList<>();
      for (int r = 0; r < relays; r++) {
        OutboxRelay relay =
            settings
                .apply(OutboxRelay.builder().store(store).client(client).owner("relay-" + r))
                .build();
        relay.start();
        fleet.add(relay);
      }
      return fleet;
    }

    private void stop(List<OutboxRelay> fleet) throws InterruptedException {
      for (OutboxRelay r : fleet) {
        r.stop();
      }
    }

    /** The process ids of this trial's connections on the server (its pool is kept full). */
    private List<Integer> backends() throws SQLException {
      List<Integer> pids = new ArrayList<>();
      try (Connection c = pool.getConnection();
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT pid FROM pg_stat_activity WHERE application_name = '" + schema + "'")) {
        while (rs.next()) {
          pids.add(rs.getInt(1));
        }
      }
      return pids;
    }

    /** Duplicates and missing keys at the provider, and rows the table does not call done. */
    private String check(boolean all) throws SQLException {
      long duplicates = provider.duplicates();
      long missing = committed.keySet().stream().filter(k -> provider.firstSeen(k) == 0).count();
      long open;
      try (Connection c = pool.getConnection();
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*) FROM " + schema + ".saferetry_intents WHERE state <> 1")) {
        rs.next();
        open = rs.getLong(1);
      }
      return String.format(
          "%d duplicates, %d missing, %d not completed, %d connections%s",
          duplicates, missing, open, provider.connections(), all ? "" : " (TIMED OUT)");
    }

    @Override
    public void close() throws SQLException {
      client.close();
      store.close();
      provider.close();
      pool.close();
      execute(url, "DROP SCHEMA " + schema + " CASCADE");
    }
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /**
   * CPU time used so far by this JVM and by the given server processes (a trial's connections:
   * other clients of the server are not counted, nor are its shared background processes, such as
   * the WAL writer), when they run on this machine.
   */
  private record Cpu(long jvmNanos, Map<Integer, Long> dbNanos) {
    static Cpu now(List<Integer> backends) {
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      Map<Integer, Long> db = new java.util.HashMap<>();
      for (int pid : backends) {
        long ns = processNanos(pid);
        if (ns >= 0) {
          db.put(pid, ns);
        }
      }
      return new Cpu(os.getProcessCpuTime(), db);
    }

    Cpu minus(Cpu earlier) {
      Map<Integer, Long> used = new java.util.HashMap<>();
      dbNanos.forEach((pid, ns) -> used.put(pid, ns - earlier.dbNanos.getOrDefault(pid, 0L)));
      return new Cpu(jvmNanos - earlier.jvmNanos, used);
    }

    /** The database's CPU time, or -1 when its processes are not visible here. */
    long db() {
      return dbNanos.isEmpty() ? -1 : dbNanos.values().stream().mapToLong(Long::longValue).sum();
    }

    /** utime + stime of a process, or -1 when it is not visible. */
    private static long processNanos(int pid) {
      try {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // USER_HZ = 100
      } catch (IOException | RuntimeException gone) {
        return -1;
      }
    }
  }

  /** The provider: answers every request at once with a charge; records each key's arrivals. */
  private static final class Provider implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Long> first = new ConcurrentHashMap<>();
    private final AtomicLong duplicates = new AtomicLong();
    private final Set<Integer> connections = ConcurrentHashMap.newKeySet();
    private final Object seen = new Object();

    private Provider(HttpServer server, ExecutorService executor) {
      this.server = server;
      this.executor = executor;
    }

    static Provider start() throws IOException {
      System.setProperty("sun.net.httpserver.nodelay", "true");
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
      ExecutorService executor =
          Executors.newFixedThreadPool(
              16,
              r -> {
                Thread t = new Thread(r, "provider");
                t.setDaemon(true);
                return t;
              });
      Provider p = new Provider(server, executor);
      server.setExecutor(executor);
      server.createContext("/", p::handle);
      server.start();
      return p;
    }

    private void handle(HttpExchange exchange) throws IOException {
      long at = System.nanoTime();
      connections.add(exchange.getRemoteAddress().getPort());
      try (InputStream in = exchange.getRequestBody()) {
        in.readAllBytes();
      }
      String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
      if (key != null && first.putIfAbsent(key, at) != null) {
        duplicates.incrementAndGet();
      }
      synchronized (seen) {
        seen.notifyAll();
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, FixedResponseServer.CHARGE.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(FixedResponseServer.CHARGE);
      }
    }

    String baseUrl() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    long firstSeen(String key) {
      return first.getOrDefault(key, 0L);
    }

    long duplicates() {
      return duplicates.get();
    }

    /** How many connections the relays' client opened to it so far. */
    int connections() {
      return connections.size();
    }

    boolean awaitKeys(int n, long timeoutMillis) throws InterruptedException {
      long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
      synchronized (seen) {
        while (first.size() < n) {
          long left = (deadline - System.nanoTime()) / 1_000_000;
          if (left <= 0) {
            return false;
          }
          seen.wait(Math.min(left, 50));
        }
        return true;
      }
    }

    @Override
    public void close() {
      server.stop(0);
      executor.shutdownNow();
    }
  }
}
