package dev.saferetry.examples;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bring your own parts: the service's own {@code OkHttpClient} (with an interceptor that stamps a
 * {@code User-Agent} and sees every attempt), its own {@code ObjectMapper}, and a listener that
 * writes retries into the service's log. See {@link MicrometerMetrics} and {@link
 * OpenTelemetryTracing} for metrics and traces.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.BringYourOwnParts -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class BringYourOwnParts {
  private static final Logger LOG = LoggerFactory.getLogger("acme.payments");

  private BringYourOwnParts() {}

  /**
   * Charges order 1006; returns the {@code Idempotency-Key} of every request the interceptor saw.
   */
  public static List<String> run(SafeRetryClientBuilder builder) {
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
    OkHttpClient http = // the one your service already has; the SDK shares its pools
        new OkHttpClient.Builder()
            .addInterceptor(userAgent)
            .connectTimeout(Duration.ofSeconds(2))
            .readTimeout(Duration.ofSeconds(10))
            .build();
    ObjectMapper mapper = // yours; the SDK uses a lenient copy
        new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    SafeRetryListener log =
        new SafeRetryListener() {
          @Override
          public void onRetryScheduled(RetryScheduled e) {
            LOG.info(
                "retrying {} in {} ms, same key {}", e.operation(), e.delay().toMillis(), e.key());
          }
        };
    try (SafeRetryClient client =
        builder.okHttpClient(http).objectMapper(mapper).listener(log).build()) {
      CallResult<Charge> charge =
          new PaymentsClient(client)
              .charges()
              .create(
                  new ChargeCreateParams(990, "gbp", "order 1006", null),
                  RequestOptions.builder().intentId("order-1006/charge").build());
      System.out.printf("charge %s; the interceptor saw keys %s%n", charge.value().id(), keysSeen);
      return List.copyOf(keysSeen);
    } finally {
      http.dispatcher().executorService().shutdown(); // yours to close: the SDK leaves it open
      http.connectionPool().evictAll();
    }
  }

  /** {@code [base-url]}: a payment API, by default a reference server on port 8080. */
  public static void main(String[] args) {
    run(
        SafeRetryClient.builder()
            .baseUrl(args.length > 0 ? args[0] : "http://127.0.0.1:8080")
            .apiKey(System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo")));
  }
}
