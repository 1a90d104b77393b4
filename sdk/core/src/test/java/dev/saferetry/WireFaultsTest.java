package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.testing.Answers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * What the HTTP client and a caller's interceptors throw: classified by what happened on the wire,
 * and never carried on with a URL's secrets or a credential in its text.
 */
class WireFaultsTest extends ClientFixture {
  private static final String API_KEY = "sk_test_wirefaults_0123456789";
  private static final String HEADER_TOKEN = "tok_header_value_abcdef";
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  /** An application interceptor that tries once more after an I/O failure, as many do. */
  private static Response retryOnce(Interceptor.Chain chain) throws IOException {
    try {
      return chain.proceed(chain.request());
    } catch (IOException first) {
      return chain.proceed(chain.request());
    }
  }

  @Test
  void anInterceptorsSecondTryIsClassifiedByTheFailureOnTheWire() throws Exception {
    server.enqueue(Answers.dropAfterRequest());
    server.enqueue(charge());
    try (SafeRetryClient c =
        builder()
            .okHttpClient(
                new OkHttpClient.Builder().addInterceptor(WireFaultsTest::retryOnce).build())
            .build()) {
      CallResult<?> r = call(c, Charges.CREATE, PARAMS);
      TransportFailure first = r.attempts().get(0).failure();
      assertThat(first)
          .isIn(TransportFailure.UNEXPECTED_EOF, TransportFailure.CONNECTION_RESET)
          .isNotEqualTo(TransportFailure.OTHER);
      assertThat(r.attempts()).hasSize(2);
    }
    List<String> keys = new ArrayList<>();
    for (var req : Answers.drain(server)) {
      keys.add(req.getHeaders().get("Idempotency-Key"));
    }
    assertThat(keys).hasSize(2).doesNotContainNull();
    assertThat(keys.get(1)).isEqualTo(keys.get(0));
  }

  @Test
  void theHttpClientsExceptionTextIsRedactedBeforeItIsCarriedOn() {
    Interceptor leaky =
        chain -> {
          throw new IOException(
              "failed POST https://merchant:hunter2pass@api.example.com/v1/charges?token=tok_query_secret99"
                  + " with Authorization: Bearer "
                  + API_KEY
                  + " and X-Api-Token: "
                  + HEADER_TOKEN,
              new IOException("nested https://u:pw_nested_secret@h.example/p?q=nested_query_val"));
        };
    try (SafeRetryClient c =
        builder()
            .apiKey(API_KEY)
            .okHttpClient(new OkHttpClient.Builder().addInterceptor(leaky).build())
            .build()) {
      assertThatThrownBy(
              () ->
                  call(
                      c,
                      Charges.CREATE,
                      PARAMS,
                      RequestOptions.none().withHeader("X-Api-Token", HEADER_TOKEN)))
          .isInstanceOfSatisfying(
              SafeRetryException.class,
              e -> {
                assertThat(e.getCause()).isNotNull();
                StringWriter printed = new StringWriter();
                e.printStackTrace(new PrintWriter(printed));
                String all = printed + e.toString();
                for (String secret :
                    List.of(
                        "hunter2pass",
                        "tok_query_secret99",
                        API_KEY,
                        HEADER_TOKEN,
                        "pw_nested_secret",
                        "nested_query_val")) {
                  assertThat(all).as(secret).doesNotContain(secret);
                }
                assertThat(all).contains("api.example.com/v1/charges").contains("IOException");
              });
    }
  }
}
