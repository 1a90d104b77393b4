package dev.saferetry.examples.support.stripe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An in-process server that speaks Stripe's v1 wire format, for examples and tests: form-encoded
 * bodies with bracket nesting, {@code Idempotency-Key} with replays marked {@code
 * Idempotent-Replayed: true}, 400 {@code idempotency_error} for a key reused with another payload
 * and 409 while the first request is running, {@code Stripe-Account} (separate data per account)
 * and {@code Stripe-Version} as part of a request's identity, a {@code Request-Id} on every answer
 * and Stripe's error bodies. Endpoints: {@code POST/GET /v1/charges}, {@code GET /v1/charges/{id}},
 * {@code POST /v1/refunds}, {@code POST /v1/customers}, {@code DELETE /v1/customers/{id}}. It is
 * harness code that stands in for Stripe, not an example to copy.
 *
 * <pre>{@code
 * try (StripeShapedServer stripe = StripeShapedServer.start()) {
 *   stripe.loseNextResponses(1);   // the next answer is lost after the charge is made
 *   ... run a client against stripe.baseUrl() ...
 *   stripe.chargesCreated();       // still 1 after the client's retry
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class StripeShapedServer implements AutoCloseable {
  /** The API version answered when a request names none. */
  public static final String DEFAULT_VERSION = "2024-06-20";

  private final HttpServer http;
  private final ExecutorService executor;
  private final StripeState state;
  private final Exchange exchange;
  final AtomicLong requests = new AtomicLong();
  final AtomicLong replays = new AtomicLong();
  final AtomicLong lost = new AtomicLong();
  final AtomicInteger toLose = new AtomicInteger();
  final AtomicReference<Hold> hold = new AtomicReference<>();

  private StripeShapedServer(int port, Clock clock) throws IOException {
    // Without TCP_NODELAY the JDK server adds ~40 ms to every keep-alive request.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    this.state = new StripeState(clock);
    this.exchange = new Exchange(this, new Router(state), new IdempotencyLayer(clock));
    this.http =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    AtomicInteger n = new AtomicInteger();
    this.executor =
        Executors.newFixedThreadPool(
            16,
            r -> {
              Thread t = new Thread(r, "stripe-shaped-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(executor);
    http.createContext("/", this::serve);
    http.start();
  }

  /** Starts a server on a free loopback port with the system clock. */
  public static StripeShapedServer start() {
    return start(0, Clock.systemUTC());
  }

  /** Starts a server on {@code port} (0 for a free one); {@code clock} dates objects and keys. */
  public static StripeShapedServer start(int port, Clock clock) {
    try {
      return new StripeShapedServer(port, Objects.requireNonNull(clock, "clock"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Stripe-shaped server", e);
    }
  }

  private void serve(HttpExchange ex) {
    try (ex) {
      exchange.handle(ex);
    } catch (IOException e) {
      // The client went away; nothing to answer.
    }
  }

  /** Returns the base URL, e.g. {@code http://127.0.0.1:54321}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + http.getAddress().getPort();
  }

  /**
   * Loses the next {@code n} answers: each request is carried out (and its idempotency key
   * completed) as usual, then the connection is closed without a response, as when an answer is
   * lost on the way back.
   */
  public void loseNextResponses(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n must not be negative");
    }
    toLose.set(n);
  }

  /**
   * Holds the next request that reaches an endpoint (after its idempotency key is claimed) until
   * {@link Hold#release()}: a request still running, for the concurrent same-key case.
   */
  public Hold holdNextExecution() {
    Hold h = new Hold();
    if (!hold.compareAndSet(null, h)) {
      throw new IllegalStateException("a hold is already armed");
    }
    return h;
  }

  /** Returns the number of requests received. */
  public long requests() {
    return requests.get();
  }

  /** Returns the number of answers replayed for an idempotency key. */
  public long replays() {
    return replays.get();
  }

  /** Returns the number of answers lost on purpose. */
  public long lostResponses() {
    return lost.get();
  }

  /** Returns the number of charges created. */
  public long chargesCreated() {
    return state.chargesCreated.get();
  }

  /** Returns the number of refunds created. */
  public long refundsCreated() {
    return state.refundsCreated.get();
  }

  /** Returns the number of customers created. */
  public long customersCreated() {
    return state.customersCreated.get();
  }

  /** Returns the number of customers deleted. */
  public long customersDeleted() {
    return state.customersDeleted.get();
  }

  /** Returns every side effect: objects created plus objects deleted. */
  public long sideEffects() {
    return chargesCreated() + refundsCreated() + customersCreated() + customersDeleted();
  }

  /** Stops the server and its threads. */
  @Override
  public void close() {
    Hold h = hold.getAndSet(null);
    if (h != null) {
      h.release();
    }
    http.stop(0);
    executor.shutdownNow();
  }

  /**
   * A request held inside the server. Waits are bounded: {@link #awaitHeld} gives up after its
   * timeout and a held request is let go after 30 seconds at the latest.
   *
   * <p>Thread-safe.
   */
  public static final class Hold {
    static final Duration MAX_HOLD = Duration.ofSeconds(30);
    final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);

    /** Returns true once a request is held; false if none arrived within {@code timeout}. */
    public boolean awaitHeld(Duration timeout) throws InterruptedException {
      return entered.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Lets the held request continue. */
    public void release() {
      released.countDown();
    }
  }
}
