package dev.saferetry.examples;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.Sleeper;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * Bring your own parts: the service's own {@code OkHttpClient} (with an interceptor that stamps a
 * {@code User-Agent} and sees every attempt), its own {@code ObjectMapper}, and a listener that
 * feeds retries, give-ups and breaker changes into the service's logs and metrics.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.BringYourOwnParts
 * </pre>
 */
public final class BringYourOwnParts {
  private BringYourOwnParts() {}

  /**
   * What the example observed.
   *
   * @param report the wire log and counts
   * @param keysSeen the {@code Idempotency-Key} of every request the interceptor saw
   * @param metrics the counters the listener fed
   */
  public record Result(Report report, List<String> keysSeen, Map<String, Long> metrics) {}

  /** Runs the scenario; {@code clock} and {@code sleeper} are the client's (fakes in tests). */
  public static Result run(Sandbox sandbox, Clock clock, Sleeper sleeper, PrintStream out) {
    String description = Sandbox.tag("own-parts");
    List<String> keysSeen = new CopyOnWriteArrayList<>();
    Interceptor userAgent =
        chain -> {
          keysSeen.add(String.valueOf(chain.request().header("Idempotency-Key")));
          String sdkAgent = chain.request().header("User-Agent");
          return chain.proceed(
              chain
                  .request()
                  .newBuilder()
                  .header("User-Agent", "acme-shop/1.0 " + sdkAgent)
                  .build());
        };
    OkHttpClient http =
        new OkHttpClient.Builder() // the one your service already has
            .addInterceptor(userAgent)
            .connectTimeout(Duration.ofSeconds(2))
            .readTimeout(Duration.ofSeconds(10))
            .build();
    ObjectMapper mapper =
        new ObjectMapper() // yours; the SDK uses a lenient copy
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    WireLog wire = new WireLog();
    MetricsListener metrics = new MetricsListener(wire);
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .baseUrl(sandbox.baseUrl())
            .apiKey("sk_test_demo")
            .okHttpClient(http)
            .objectMapper(mapper)
            .listener(metrics)
            .clock(clock)
            .sleeper(sleeper)
            .build()) {
      sandbox.dropNextResponse();
      String id =
          new PaymentsClient(client)
              .charges()
              .create(
                  new ChargeCreateParams(990, "gbp", description, null),
                  RequestOptions.builder().intentId("order-1006/charge").build())
              .value()
              .id();
      Map<String, Long> snapshot = metrics.snapshot();
      out.printf(
          "  charge %s; interceptor saw %d requests with keys %s; metrics %s%n",
          id, keysSeen.size(), keysSeen, snapshot);
      Report report =
          new Report(
              "own-parts",
              1,
              sandbox.sideEffects(description),
              client.pendingIntents().size(),
              wire.rows());
      return new Result(report, List.copyOf(keysSeen), snapshot);
    } finally {
      http.dispatcher().executorService().shutdown(); // yours to close: the SDK leaves it open
      http.connectionPool().evictAll();
    }
  }

  /** Runs the example against an in-process server, or the base URL given as argument. */
  public static void main(String[] args) {
    try (Sandbox sandbox = Sandbox.fromArgs(args, 0)) {
      Report report = run(sandbox, Clock.systemUTC(), Sleeper.system(), System.out).report();
      report.print(System.out);
      System.out.println(report.verdict());
    }
  }
}
