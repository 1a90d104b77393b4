package dev.saferetry.testing.provider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import mockwebserver3.MockWebServer;

/**
 * A fake payment provider for your tests: an HTTP server on a free loopback port (OkHttp's
 * MockWebServer) that keeps real idempotency semantics in the reference payments API's JSON or in
 * Stripe's wire format ({@link Dialect}), misbehaves on demand ({@link Fault}), and records every
 * request and every effect, so that a test can prove that its code survives a lost answer, a 5xx
 * after commit, a hang or a rate limit with exactly one effect.
 *
 * <pre>{@code
 * try (FakeProvider provider = FakeProvider.start()) {
 *   SafeRetryClient client = SafeRetryClient.builder().baseUrl(provider.baseUrl()).build();
 *   provider.arm(Fault.loseAnswer());              // the charge is made, its answer lost
 *   ChargeCreateParams charge = ChargeCreateParams.builder().amount(1999L).currency("eur").build();
 *   new PaymentsClient(client).charges().create(charge, RequestOptions.none()); // saferetry-payments
 *   assertEquals(1, provider.effects().size());    // the retry was replayed: one charge
 *   provider.assertOneKeyPerIntent();              // both attempts carried the same key
 * }
 * }</pre>
 *
 * <p>The same key with the same request replays the stored answer, marked {@code
 * Idempotent-Replayed: true}; with another request it gets the dialect's "key reused" error; while
 * the first request with the key is still running, 409. Keys are kept 24 hours of the provider's
 * clock. Where the key is read from is configurable: {@link Builder#keyHeader(String)} (any header,
 * e.g. {@code PayPal-Request-Id}) or {@link Builder#keyBodyField(String)} (e.g. Square's {@code
 * idempotency_key}). Endpoints of your own provider's API can be added with {@link
 * Builder#endpoint(String, Function)}.
 *
 * <p>Thread-safe: requests are served concurrently, and a test may arm, release, read and reset
 * from any thread. {@link #close()} stops the server and lets every held request go.
 */
public final class FakeProvider implements AutoCloseable {
  private final Dialect dialect;
  private final MockWebServer server;
  private final Engine engine;

  private FakeProvider(Builder b) {
    this.dialect = b.dialect;
    Shape shape = b.dialect == Dialect.STRIPE ? new StripeShape() : new JsonShape();
    List<Route> routes = new ArrayList<>();
    b.endpoints.forEach((operation, handler) -> routes.add(Custom.route(operation, handler)));
    Runnable resetState;
    if (b.dialect == Dialect.STRIPE) {
      StripeApi api = new StripeApi(b.clock);
      routes.addAll(api.routes());
      resetState = api::reset;
    } else {
      JsonPayments api = new JsonPayments(b.clock);
      routes.addAll(api.routes());
      resetState = api::reset;
    }
    this.engine =
        new Engine(
            shape,
            routes,
            new Engine.KeyLocation(b.keyHeader, b.keyBodyField),
            b.requireKey,
            b.clock,
            b.keyRetention,
            resetState);
    this.server = new MockWebServer();
    server.setDispatcher(engine);
    server.setServerSocketFactory(new NoDelaySockets());
    server.setBodyLimit(Call.MAX_BODY + 1L);
    try {
      server.start(InetAddress.getLoopbackAddress(), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the fake provider", e);
    }
  }

  /** {@return a provider of the reference payments API ({@link Dialect#JSON}), started} */
  public static FakeProvider start() {
    return builder().start();
  }

  /** {@return a builder with the defaults documented on each setter} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return the base URL, e.g. {@code http://127.0.0.1:54321}, without a trailing slash} */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getPort();
  }

  /** {@return the wire format it speaks} */
  public Dialect dialect() {
    return dialect;
  }

  /**
   * Arms a fault for the next request that matches it (after any fault armed before it that matches
   * the same request). Each request takes at most one fault.
   *
   * @param fault the fault, e.g. {@code Fault.loseAnswer().on("POST /v1/charges")}
   * @return this provider
   */
  public FakeProvider arm(Fault fault) {
    engine.faults.arm(Objects.requireNonNull(fault, "fault"));
    return this;
  }

  /**
   * Disarms every fault still armed, leaving keys, objects and records as they are: for a fault
   * armed for "many" requests (an outage, {@code Fault.failBeforeCommit(503).times(1000)}) that a
   * test ends when it likes.
   */
  public void disarm() {
    engine.faults.clear();
  }

  /** {@return the faults still armed, each with the uses it has left, in the order armed} */
  public List<Fault> armed() {
    return engine.faults.armed();
  }

  /**
   * Waits until a request is held by {@link Fault#hang()} or {@link Fault#hangBeforeCommit()}.
   *
   * @param timeout the longest wait
   * @return true once one is held; false if none was within {@code timeout}
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitHeld(Duration timeout) throws InterruptedException {
    return engine.holds.awaitHeld(Objects.requireNonNull(timeout, "timeout"));
  }

  /**
   * Lets every held request go: one held by {@link Fault#hang()} sends its answer (to a client
   * still listening), one held by {@link Fault#hangBeforeCommit()} is carried out.
   */
  public void releaseHeld() {
    engine.holds.releaseAll();
  }

  /** {@return every request received, in arrival order} */
  public List<Received> received() {
    return engine.journal.received();
  }

  /** {@return every effect made, in order} */
  public List<Effect> effects() {
    return engine.journal.effects();
  }

  /** {@return the number of effects made under each key (effects without a key are left out)} */
  public Map<String, Integer> effectsPerKey() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Effect e : effects()) {
      if (e.key() != null) {
        counts.merge(e.key(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** {@return the number of effects made by each operation, e.g. {@code "POST /v1/charges"}} */
  public Map<String, Integer> effectsPerOperation() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Effect e : effects()) {
      counts.merge(e.operation(), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Checks that no key produced more than one effect (possible only when a key outlived the
   * provider's retention, or across a {@link #reset()}).
   *
   * @throws AssertionError naming each key and its effects
   */
  public void assertOneEffectPerKey() {
    fail(engine.journal.keysWithSeveralEffects());
  }

  /**
   * Checks that no request was carried out twice: two effects of the same method, path, account and
   * parameters, under two keys or none, are a duplicate — the charge a retry with a new key makes.
   * Two intended, identical requests look the same: give each something of its own (a description,
   * an order id in metadata).
   *
   * @throws AssertionError naming each duplicated request, its keys and its effects
   */
  public void assertNoDuplicateEffects() {
    fail(engine.journal.duplicateEffects());
  }

  /**
   * Checks that every attempt of an intent carried the same key, where the attempts of one intent
   * are the writes with the same method, path, account and parameters (reads are left out).
   *
   * @throws AssertionError naming each intent whose attempts carried several keys (or a key on some
   *     and none on others)
   */
  public void assertOneKeyPerIntent() {
    fail(engine.journal.intentsWithSeveralKeys(null));
  }

  /**
   * Checks that every attempt of an intent carried the same key, where {@code intent} names the
   * intent of each write (reads are left out), e.g. {@code r -> r.parameters().get("description")};
   * writes it maps to null are left out.
   *
   * @param intent names a write's intent
   * @throws AssertionError naming each intent whose attempts carried several keys
   */
  public void assertOneKeyPerIntent(Function<Received, ?> intent) {
    fail(engine.journal.intentsWithSeveralKeys(Objects.requireNonNull(intent, "intent")));
  }

  private static void fail(List<String> problems) {
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("\n", problems));
    }
  }

  /**
   * Makes the provider as new, on the same port: forgets every key, object, request and effect,
   * disarms every fault and lets every held request go. A request held before commit then does
   * nothing (it is answered 503) and a request held across the reset is not recorded, so nothing of
   * one test reaches the next. For a provider shared by several tests.
   */
  public void reset() {
    engine.reset();
  }

  /**
   * Stops the server; lets every held request go (one held before commit does nothing). Idempotent.
   */
  @Override
  public void close() {
    engine.close();
    server.close();
  }

  @Override
  public String toString() {
    return "FakeProvider{" + dialect + ", " + baseUrl() + "}";
  }

  /**
   * Settings of a {@link FakeProvider}; {@link #start()} starts one. A builder may start several
   * providers, each with the settings it had then.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private Dialect dialect = Dialect.JSON;
    private String keyHeader = "Idempotency-Key";
    private String keyBodyField;
    private boolean requireKey;
    private Clock clock = Clock.systemUTC();
    private Duration keyRetention = Duration.ofHours(24);
    private final Map<String, Function<Map<String, Object>, Map<String, Object>>> endpoints =
        new LinkedHashMap<>();

    private Builder() {}

    /**
     * The wire format. Default: {@link Dialect#JSON}.
     *
     * @param dialect the dialect
     * @return this builder
     */
    public Builder dialect(Dialect dialect) {
      this.dialect = Objects.requireNonNull(dialect, "dialect");
      return this;
    }

    /**
     * Reads the key from this header, e.g. {@code PayPal-Request-Id}. Default: {@code
     * Idempotency-Key}.
     *
     * @param name the header name
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is not a header name
     */
    public Builder keyHeader(String name) {
      if (!Objects.requireNonNull(name, "name").matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
        throw new IllegalArgumentException("keyHeader must be a header name: " + name);
      }
      this.keyHeader = name;
      this.keyBodyField = null;
      return this;
    }

    /**
     * Reads the key from this top-level body field instead of a header, e.g. Square's {@code
     * idempotency_key}; the field is not part of the request's parameters (nor of its fingerprint).
     * Default: none (the key is in a header).
     *
     * @param name the field name
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is empty
     */
    public Builder keyBodyField(String name) {
      if (Objects.requireNonNull(name, "name").isEmpty()) {
        throw new IllegalArgumentException("keyBodyField must not be empty");
      }
      this.keyBodyField = name;
      this.keyHeader = null;
      return this;
    }

    /**
     * Whether a write without a key is refused with 400 (and does nothing). Default: false, a write
     * without a key is carried out (and may be duplicated by a retry).
     *
     * @param require whether to require keys
     * @return this builder
     */
    public Builder requireKey(boolean require) {
      this.requireKey = require;
      return this;
    }

    /**
     * The provider's clock: it dates objects ({@code created}) and ages keys. Default: the system
     * clock (UTC).
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How long a key counts from its first use; after that the same key is a new request. Default:
     * 24 hours.
     *
     * @param retention positive
     * @return this builder
     * @throws IllegalArgumentException if {@code retention} is not positive
     */
    public Builder keyRetention(Duration retention) {
      if (Objects.requireNonNull(retention, "retention").isNegative() || retention.isZero()) {
        throw new IllegalArgumentException("keyRetention must be positive: " + retention);
      }
      this.keyRetention = retention;
      return this;
    }

    /**
     * Adds an endpoint of your provider's API, served with the same idempotency rules and faults as
     * the built-in ones and answered as JSON. {@code handler} gets the request's parameters (query
     * and body, the path's {@code {name}} variables added where the request has no parameter of
     * that name; without the key) and returns the JSON object to answer with 200. A write it serves
     * is an effect, whose object id is the answer's {@code "id"} if it is a string. An {@link
     * IllegalArgumentException} it throws is answered 400 with its message (nothing is stored for
     * the key, no effect); any other exception 500. Endpoints added here come before the dialect's,
     * in the order added.
     *
     * <pre>{@code
     * FakeProvider.builder()
     *     .keyHeader("PayPal-Request-Id")
     *     .endpoint("POST /v2/checkout/orders", order -> Map.of("id", "5O190127TN364715T", "status", "CREATED"))
     *     .start();
     * }</pre>
     *
     * @param operation {@code "METHOD /path"}, with {@code {name}} for a path variable
     * @param handler the endpoint; called concurrently, so thread-safe
     * @return this builder
     * @throws IllegalArgumentException if {@code operation} is not {@code "METHOD /path"}
     */
    public Builder endpoint(
        String operation, Function<Map<String, Object>, Map<String, Object>> handler) {
      OperationPattern pattern =
          OperationPattern.parse(Objects.requireNonNull(operation, "operation"));
      if (pattern.method() == null) {
        throw new IllegalArgumentException("an endpoint names its method: " + operation);
      }
      endpoints.put(operation, Objects.requireNonNull(handler, "handler"));
      return this;
    }

    /**
     * {@return a provider with these settings, listening on a free loopback port}
     *
     * @throws UncheckedIOException if the server cannot start
     */
    public FakeProvider start() {
      return new FakeProvider(this);
    }
  }
}
