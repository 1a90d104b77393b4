package dev.saferetry.conformance.server;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A small Stripe-like charges API that implements the server half of the Idempotency-Key contract
 * exactly (docs/ARCHITECTURE.md, "The reference server"). The conformance suite is proven against
 * it, and the SDK's examples and tests start it in-process.
 *
 * <pre>{@code
 * try (ReferenceServer server = ReferenceServer.builder().build().start()) {
 *   String url = server.baseUrl() + "/v1/charges";  // POST with Idempotency-Key + Bearer token
 *   server.faults().next(Fault.dropAfterCommit());   // the next response gets lost
 *   long effects = server.sideEffects();
 * }
 * }</pre>
 *
 * <p>API: {@code POST /v1/charges}, {@code GET /v1/charges}, {@code GET /v1/charges/{id}}, {@code
 * POST /v1/refunds}, described by the OpenAPI document the server serves at {@code GET
 * /openapi.json} (no token needed; the typed client {@code saferetry-payments} is generated from
 * it); tenants are bearer tokens; keys are scoped per (tenant, operation, key). Test hooks (when
 * enabled): {@code GET /_test/side-effects[?description=D]}, {@code POST /_test/faults}, {@code
 * DELETE /_test/faults}, {@code POST /_test/clock}, {@code POST /_test/restart}.
 *
 * <p>Thread-safe: one server serves concurrent requests; {@link #close()} may be called from any
 * thread and ends hung requests.
 */
public final class ReferenceServer implements AutoCloseable {
  private final ServerSettings settings;
  private final Function<FlowContext, IdempotencyFlow> flowFactory;
  private final Function<TestHooks, TestHooks> hooksFactory;
  private final boolean privateDatabase;
  private final Faults faults = new Faults();
  private final CountDownLatch closing = new CountDownLatch(1);
  private Database db;
  private HttpServer http;
  private ExecutorService executor;

  private ReferenceServer(Builder b) {
    this.privateDatabase = b.jdbcUrl == null;
    String url =
        privateDatabase
            ? "jdbc:h2:mem:saferetry-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"
            : b.jdbcUrl;
    this.settings =
        new ServerSettings(
            b.host,
            b.port,
            url,
            b.keyHeader,
            b.keyBodyField,
            b.retention,
            b.lockTimeout,
            b.clock,
            b.requireKey,
            b.testHooks,
            b.maxKeyLength,
            b.emptyKey);
    this.flowFactory = b.flowFactory;
    this.hooksFactory = b.hooksFactory;
  }

  /** {@return a builder with the defaults documented on each setter} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates the schema if absent and starts listening.
   *
   * @return this server
   * @throws UncheckedIOException if the port cannot be bound
   * @throws IllegalStateException if the database is unreachable or already started
   */
  public synchronized ReferenceServer start() {
    if (http != null) {
      throw new IllegalStateException("already started");
    }
    db = new Database(settings.jdbcUrl());
    OffsetClock clock = new OffsetClock(settings.clock());
    try {
      db.createSchema();
    } catch (SQLException e) {
      db.close(privateDatabase);
      // Drivers quote the URL they were given ("No suitable driver found for ..."): the message
      // keeps it with its credentials masked, and the raw cause is not attached.
      throw new IllegalStateException(
          "cannot prepare database (SQL state "
              + e.getSQLState()
              + "): "
              + Database.withoutCredentials(e.getMessage()));
    }
    FlowContext ctx =
        new FlowContext(
            db,
            new KeyTable(db.postgres()),
            clock,
            settings.lockTimeout(),
            settings.retention(),
            faults,
            closing);
    IdempotencyFlow flow = flowFactory.apply(ctx);
    TestHooks hooks =
        settings.testHooks() ? hooksFactory.apply(new TestHooks(db, faults, clock, flow)) : null;
    System.setProperty("sun.net.httpserver.nodelay", "true");
    try {
      http = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 128);
    } catch (IOException e) {
      db.close(privateDatabase);
      throw new UncheckedIOException(e);
    }
    executor = Executors.newCachedThreadPool(ReferenceServer::daemon);
    http.setExecutor(executor);
    http.createContext("/", new ApiHandler(settings, flow, db, hooks));
    http.start();
    return this;
  }

  private static Thread daemon(Runnable r) {
    Thread thread = new Thread(r, "reference-server");
    thread.setDaemon(true);
    return thread;
  }

  /**
   * {@return the base URL, e.g. {@code http://127.0.0.1:54321}, without a trailing slash}
   *
   * @throws IllegalStateException if the server has not been started
   */
  public String baseUrl() {
    if (http == null) {
      throw new IllegalStateException("not started");
    }
    return "http://" + settings.host() + ":" + http.getAddress().getPort();
  }

  /**
   * {@return how many mutations (charges and refunds) were executed and committed in all} A
   * conforming server executes one per idempotency key, however often a request is retried.
   *
   * @throws IllegalStateException if the database cannot be read
   */
  public long sideEffects() {
    return sideEffects(null);
  }

  /**
   * {@return how many committed mutations carried this description}
   *
   * @param description the request's {@code description} field, e.g. {@code order 123}; null counts
   *     every mutation
   * @throws IllegalStateException if the database cannot be read
   */
  public long sideEffects(String description) {
    try {
      return TestHooks.count(db, description);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count side effects: " + e.getMessage(), e);
    }
  }

  /** {@return the fault queue, to arm one-shot faults for the next mutations} */
  public Faults faults() {
    return faults;
  }

  /** Stops listening, ends hung requests, and releases the database (a private one is gone). */
  @Override
  public synchronized void close() {
    closing.countDown();
    if (http != null) {
      http.stop(0);
      executor.shutdownNow();
      db.close(privateDatabase);
    }
  }

  /**
   * Starts a standalone server and runs until the JVM is stopped; test hooks are off unless asked
   * for.
   *
   * @param args {@code --port N} (default 8080), {@code --host H}, {@code --jdbc-url URL}, {@code
   *     --key-header H}, {@code --key-body-field F}, {@code --retention-seconds S}, {@code
   *     --lock-timeout-seconds S}, {@code --test-hooks}, {@code --no-require-key}; {@code --help}
   *     prints the usage and exits 0, a malformed option prints its message and the usage and exits
   *     2
   * @throws InterruptedException if the main thread is interrupted while serving
   */
  public static void main(String[] args) throws InterruptedException {
    ReferenceServerMain.run(args);
  }

  /** Builds a {@link ReferenceServer}. Not thread-safe; build once, then discard. */
  public static final class Builder {
    private int port;
    private String host = "127.0.0.1";
    private String jdbcUrl;
    private String keyHeader = "Idempotency-Key";
    private String keyBodyField;
    private Duration retention = Duration.ofHours(24);
    private Duration lockTimeout = Duration.ofSeconds(30);
    private Clock clock = Clock.systemUTC();
    private boolean requireKey = true;
    private boolean testHooks = true;
    private Function<FlowContext, IdempotencyFlow> flowFactory = IdempotencyFlow::new;
    private Function<TestHooks, TestHooks> hooksFactory = Function.identity();
    private int maxKeyLength = IdempotencyKeys.MAX_LENGTH;
    private ServerSettings.EmptyKey emptyKey = ServerSettings.EmptyKey.REJECTED;

    private Builder() {}

    /**
     * Sets the TCP port; default 0 (ephemeral).
     *
     * @param port 0 to 65535
     * @return this builder
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Sets the bind address; default {@code 127.0.0.1}.
     *
     * @param host a host name or address
     * @return this builder
     */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /**
     * Sets the JDBC URL; default a fresh private in-memory H2 database. {@code jdbc:h2:file:...}
     * survives a restart; {@code jdbc:postgresql://...} may be shared by several servers. Its
     * driver must be on the classpath.
     *
     * @param jdbcUrl the database's JDBC URL
     * @return this builder
     */
    public Builder jdbcUrl(String jdbcUrl) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      return this;
    }

    /**
     * Sets the header carrying the key; default {@code Idempotency-Key}.
     *
     * @param keyHeader the header name
     * @return this builder
     */
    public Builder keyHeader(String keyHeader) {
      this.keyHeader = Objects.requireNonNull(keyHeader, "keyHeader");
      return this;
    }

    /**
     * Reads the key from a top-level body field instead of the header; default null (the header).
     *
     * @param keyBodyField the field name, excluded from the request hash; null for the header
     * @return this builder
     */
    public Builder keyBodyField(String keyBodyField) {
      this.keyBodyField = keyBodyField;
      return this;
    }

    /**
     * Sets how long a key's record counts; default 24 hours. After that the key is new again.
     *
     * @param retention a positive duration
     * @return this builder
     * @throws IllegalArgumentException if {@code retention} is zero or negative
     */
    public Builder retention(Duration retention) {
      this.retention = positive(retention, "retention");
      return this;
    }

    /**
     * Sets the age after which a pending record may be taken over by a retry; default 30 seconds.
     *
     * @param lockTimeout a positive duration
     * @return this builder
     * @throws IllegalArgumentException if {@code lockTimeout} is zero or negative
     */
    public Builder lockTimeout(Duration lockTimeout) {
      this.lockTimeout = positive(lockTimeout, "lockTimeout");
      return this;
    }

    /**
     * Sets the server clock, which retention and lock timeouts are measured by; default {@link
     * Clock#systemUTC()}. The {@code POST /_test/clock} hook advances it further.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets whether POSTs without a key are rejected with 400; default true.
     *
     * @param requireKey false to execute keyless POSTs without idempotency
     * @return this builder
     */
    public Builder requireKey(boolean requireKey) {
      this.requireKey = requireKey;
      return this;
    }

    /**
     * Sets whether the {@code /_test/...} hooks are served; default true.
     *
     * @param testHooks false to serve only the charges API
     * @return this builder
     */
    public Builder testHooks(boolean testHooks) {
      this.testHooks = testHooks;
      return this;
    }

    /** Replaces the idempotency flow: used by the suite's broken-server fixtures only. */
    Builder flow(Function<FlowContext, IdempotencyFlow> flowFactory) {
      this.flowFactory = Objects.requireNonNull(flowFactory, "flowFactory");
      return this;
    }

    /** Replaces the test hooks' shape: used by the suite's server fixtures only. */
    Builder hooks(Function<TestHooks, TestHooks> hooksFactory) {
      this.hooksFactory = Objects.requireNonNull(hooksFactory, "hooksFactory");
      return this;
    }

    /** The longest key accepted: used by the suite's server fixtures only. */
    Builder maxKeyLength(int maxKeyLength) {
      this.maxKeyLength = maxKeyLength;
      return this;
    }

    /** What an empty key header means: used by the suite's server fixtures only. */
    Builder emptyKey(ServerSettings.EmptyKey emptyKey) {
      this.emptyKey = Objects.requireNonNull(emptyKey, "emptyKey");
      return this;
    }

    /** {@return a new server with these settings, not yet started} */
    public ReferenceServer build() {
      return new ReferenceServer(this);
    }

    private static Duration positive(Duration d, String name) {
      if (Objects.requireNonNull(d, name).isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive: " + d);
      }
      return d;
    }
  }
}
