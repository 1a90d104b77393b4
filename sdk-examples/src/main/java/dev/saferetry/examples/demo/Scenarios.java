package dev.saferetry.examples.demo;

import dev.saferetry.ProviderPreset;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.conformance.proxy.Fault;
import dev.saferetry.conformance.proxy.FaultProxy;
import dev.saferetry.conformance.proxy.ProxiedRequest;
import dev.saferetry.examples.AsyncCharges;
import dev.saferetry.examples.BringYourOwnParts;
import dev.saferetry.examples.LostResponse;
import dev.saferetry.examples.Outage;
import dev.saferetry.examples.ProviderProfiles;
import dev.saferetry.examples.QuickStart;
import dev.saferetry.examples.StripeStyle;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.Sleeper;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import okhttp3.OkHttpClient;

/**
 * The guided tour's scenarios: each arranges the world around one example (a fresh in-process
 * reference server, a lost response, an outage through the conformance suite's fault proxy), runs
 * the example's code against it with a client that records the wire, and reports the charges
 * intended next to the charges the server made. The examples' tests run the same scenarios with a
 * fake clock and sleeper.
 *
 * <p>Stateless; thread-safe.
 */
public final class Scenarios {
  /** How many responses the asynchronous scenario loses. */
  public static final int ASYNC_LOST_RESPONSES = 4;

  /** How many requests the outage proxy refuses with {@code 503} before it lets them through. */
  public static final int OUTAGE_REFUSALS = 3;

  private final Clock clock;
  private final Sleeper sleeper;

  /** Scenarios whose clients use {@code clock} and {@code sleeper}. */
  public Scenarios(Clock clock, Sleeper sleeper) {
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** One example's run inside a scenario. */
  @FunctionalInterface
  interface Run {
    void accept(SafeRetryClientBuilder client) throws Exception;
  }

  /**
   * Runs {@code run} against {@code baseUrl} with a recording client; reports against {@code api}.
   */
  Report observe(String name, long intended, Sandbox api, String baseUrl, Run run)
      throws Exception {
    return observe(name, intended, api, baseUrl, new WireLog(), run);
  }

  /** Like {@link #observe(String, long, Sandbox, String, Run)}, recording into {@code wire}. */
  Report observe(String name, long intended, Sandbox api, String baseUrl, WireLog wire, Run run)
      throws Exception {
    KeyStore store = KeyStore.inMemory();
    run.accept(
        SafeRetryClient.builder()
            .baseUrl(baseUrl)
            .apiKey("sk_test_demo")
            .keyStore(store)
            .listener(wire)
            .clock(clock)
            .sleeper(sleeper));
    return new Report(name, intended, api.sideEffects(), store.pending().size(), wire.rows());
  }

  /** One charge as a named intent, read back by id. */
  public Report quickStart() throws Exception {
    try (Sandbox api = Sandbox.start()) {
      return observe("quick-start", 1, api, api.baseUrl(), QuickStart::run);
    }
  }

  /** The server commits, the response is lost; the retry carries the same key. */
  public Report lostResponse() throws Exception {
    try (Sandbox api = Sandbox.start()) {
      api.dropNextResponse();
      return observe("lost-response", 1, api, api.baseUrl(), LostResponse::run);
    }
  }

  /** 503 with Retry-After until the breaker opens; the intent completes once the API is back. */
  public Report outage() throws Exception {
    AtomicInteger refusals = new AtomicInteger(OUTAGE_REFUSALS);
    Function<ProxiedRequest, Fault> down =
        r ->
            r.method().equals("POST") && refusals.getAndDecrement() > 0
                ? Fault.answer(
                    503, Map.of("Retry-After", "1"), "{\"error\":{\"type\":\"api_error\"}}")
                : Fault.pass();
    OkHttpClient upstream = new OkHttpClient();
    try (Sandbox api = Sandbox.start();
        FaultProxy proxy = FaultProxy.start(api.baseUrl(), upstream, down)) {
      WireLog wire = new WireLog();
      return observe(
          "outage", 1, api, proxy.baseUrl(), wire, c -> Outage.run(c, sleeper, wire::watch));
    } finally {
      upstream.connectionPool().evictAll();
    }
  }

  /**
   * The Stripe-style example against a fake Stripe, the charge's answer lost after it was made:
   * customer, charge, refund and deletion each happen once.
   */
  public Report stripeStyle(PrintStream out) {
    WireLog wire = new WireLog();
    KeyStore store = KeyStore.inMemory();
    try (FakeProvider api = FakeProvider.builder().dialect(Dialect.STRIPE).start();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .preset(ProviderPreset.stripe())
                .baseUrl(api.baseUrl())
                .apiKey("sk_test_demo")
                .keyStore(store)
                .listener(wire)
                .clock(clock)
                .sleeper(sleeper)
                .build()) {
      var loss = dev.saferetry.testing.provider.Fault.loseAnswer().on("POST /v1/charges");
      boolean passed = StripeStyle.run(client, "acct_1", () -> api.arm(loss));
      // A failed step fails the verdict.
      return new Report(
          "stripe-style",
          passed ? 4 : 5,
          api.effects().size(),
          store.pending().size(),
          wire.rows());
    }
  }

  /** The key in PayPal's header, then in Square's body field, each losing a response. */
  public Report providerProfiles() throws Exception {
    try (Sandbox paypal = Sandbox.start(b -> b.keyHeader("PayPal-Request-Id"));
        Sandbox square = Sandbox.start(b -> b.keyBodyField("idempotency_key"))) {
      Report p = lostResponseWithKeyAt("paypal", paypal, ProviderProfiles.PAYPAL);
      Report s = lostResponseWithKeyAt("square", square, ProviderProfiles.SQUARE);
      return Report.combine("provider-profiles", p, s);
    }
  }

  private Report lostResponseWithKeyAt(String name, Sandbox api, KeyPlacement placement)
      throws Exception {
    api.dropNextResponse();
    return observe(name, 1, api, api.baseUrl(), c -> ProviderProfiles.run(c, placement));
  }

  /** Concurrent charges through futures, some responses lost. */
  public Report async() throws Exception {
    try (Sandbox api = Sandbox.start()) {
      for (int i = 0; i < ASYNC_LOST_RESPONSES; i++) {
        api.dropNextResponse();
      }
      Report r = observe("async", AsyncCharges.ORDERS, api, api.baseUrl(), AsyncCharges::run);
      return new Report(
          r.scenario(), r.intended(), r.sideEffects(), r.pendingIntents(), retriedFirst(r.wire()));
    }
  }

  /** Orders the rows by intent, the retried intents first, and sums up the others in a note. */
  static List<WireLog.Row> retriedFirst(List<WireLog.Row> attempts) {
    Map<String, List<WireLog.Row>> byIntent = new TreeMap<>();
    attempts.forEach(r -> byIntent.computeIfAbsent(r.intentId(), k -> new ArrayList<>()).add(r));
    List<WireLog.Row> rows = new ArrayList<>();
    byIntent.values().stream().filter(list -> list.size() > 1).forEach(rows::addAll);
    long single = byIntent.values().stream().filter(list -> list.size() == 1).count();
    rows.add(WireLog.Row.note(single + " other intents: one attempt each, one key each"));
    return rows;
  }

  /**
   * The caller's OkHttpClient, interceptor, ObjectMapper and listener, losing a response. The
   * example installs its own listener, so the report has no wire rows: the example prints them.
   */
  public Report ownParts() throws Exception {
    try (Sandbox api = Sandbox.start()) {
      api.dropNextResponse();
      return observe("own-parts", 1, api, api.baseUrl(), BringYourOwnParts::run);
    }
  }
}
