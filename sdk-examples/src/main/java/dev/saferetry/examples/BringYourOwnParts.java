package dev.saferetry.examples;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bring your own parts: your {@code OkHttpClient} (with an interceptor that stamps a {@code
 * User-Agent} and sees every attempt), your {@code ObjectMapper}, and a listener writing retries to
 * your log. Metrics and traces: {@link MicrometerMetrics}, {@link OpenTelemetryTracing}.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.BringYourOwnParts -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class BringYourOwnParts {
  private static final Logger LOG = LoggerFactory.getLogger("acme.payments");

  private BringYourOwnParts() {}

  /** Charges order 1006; returns the key of every request the interceptor saw. */
  public static List<String> run(SafeRetryClientBuilder builder) {
    List<String> keysSeen = new CopyOnWriteArrayList<>();
    Interceptor stamp =
        chain -> {
          Request request = chain.request();
          keysSeen.add(String.valueOf(request.header("Idempotency-Key")));
          String agent = "acme-shop/1.0 " + request.header("User-Agent");
          return chain.proceed(request.newBuilder().header("User-Agent", agent).build());
        };
    OkHttpClient http = // the one your service already has; the SDK shares its pools
        new OkHttpClient.Builder().addInterceptor(stamp).readTimeout(Duration.ofSeconds(5)).build();
    ObjectMapper mapper = // yours; the SDK uses a lenient copy
        new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    SafeRetryListener log =
        new SafeRetryListener() {
          @Override
          public void onRetryScheduled(RetryScheduled e) {
            LOG.info("retry of {} in {} ms, key {}", e.operation(), e.delay().toMillis(), e.key());
          }
        };
    try (SafeRetryClient client =
        builder.okHttpClient(http).objectMapper(mapper).listener(log).build()) {
      RequestOptions intent = RequestOptions.none().withIntentId("order-1006/charge");
      var order = ChargeCreateParams.builder().amount(990L).currency("gbp");
      ChargeCreateParams params = order.description("order 1006").build();
      CallResult<Charge> charge = new PaymentsClient(client).charges().create(params, intent);
      System.out.printf("charge %s; the interceptor saw keys %s%n", charge.value().id(), keysSeen);
      return List.copyOf(keysSeen);
    } finally {
      http.dispatcher().executorService().shutdown(); // yours to close: the SDK leaves it open
      http.connectionPool().evictAll();
    }
  }

  /** {@code [base-url]}: a payment API, by default a reference server on port 8080. */
  public static void main(String[] args) {
    String baseUrl = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
    String apiKey = System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo");
    run(SafeRetryClient.builder().baseUrl(baseUrl).apiKey(apiKey));
  }
}
