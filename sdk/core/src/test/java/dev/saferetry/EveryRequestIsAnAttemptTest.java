package dev.saferetry;

import static dev.saferetry.RawHttpServer.DROP;
import static dev.saferetry.RawHttpServer.answer;
import static dev.saferetry.RawHttpServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.saferetry.call.Attempt;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OkHttp re-sends requests on its own (follow-ups: a 503 with {@code Retry-After: 0}, a 408, an
 * authenticator's answer to 401/407, redirects; a caller's interceptor may call {@code proceed}
 * twice). Every request that reaches the socket must be an attempt the SDK decided on and recorded,
 * with its own request id. Counted on a bare server socket, for every fault kind.
 */
class EveryRequestIsAnAttemptTest {
  private static final String CHARGE = Answers.CHARGE_JSON;

  /** A fault: what the server answers, and how the caller's own OkHttp client is configured. */
  record Fault(
      String name,
      List<String> script,
      Function<RawHttpServer, OkHttpClient.Builder> caller,
      String baseUrl,
      int attempts,
      Class<? extends Throwable> ending) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Fault> faults() {
    Function<RawHttpServer, OkHttpClient.Builder> plain = s -> new OkHttpClient.Builder();
    return Stream.of(
        new Fault(
            "503 with Retry-After: 0, then 200",
            List.of(answer("503 Unavailable", "Retry-After: 0"), ok(CHARGE)),
            plain,
            null,
            2,
            null),
        new Fault(
            "503 with Retry-After: 00 on every attempt",
            List.of(
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00"),
                answer("503 Unavailable", "Retry-After: 00")),
            plain,
            null,
            4,
            OutcomeUnknownException.class),
        new Fault(
            "503 with a Retry-After too large for OkHttp's int",
            List.of(answer("503 Unavailable", "Retry-After: 99999999999"), ok(CHARGE)),
            plain,
            null,
            1,
            OutcomeUnknownException.class),
        new Fault(
            "408, then 200, caller's client retries on connection failure",
            List.of(answer("408 Request Timeout"), ok(CHARGE)),
            s -> new OkHttpClient.Builder().retryOnConnectionFailure(true),
            null,
            2,
            null),
        new Fault(
            "401, caller's client has an authenticator",
            List.of(answer("401 Unauthorized", "WWW-Authenticate: Bearer"), ok(CHARGE)),
            s ->
                new OkHttpClient.Builder()
                    .authenticator(
                        (route, response) ->
                            response
                                .request()
                                .newBuilder()
                                .header("Authorization", "Bearer refreshed")
                                .build()),
            null,
            1,
            ApiException.class),
        new Fault(
            "407 from an HTTP proxy, caller's client has a proxy authenticator",
            List.of(answer("407 Proxy Auth", "Proxy-Authenticate: Basic realm=\"p\""), ok(CHARGE)),
            s ->
                new OkHttpClient.Builder()
                    .proxy(new Proxy(Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", s.port())))
                    .proxyAuthenticator(
                        (route, response) ->
                            response
                                .request()
                                .newBuilder()
                                .header("Proxy-Authorization", "Basic dTpw")
                                .build()),
            "http://api.invalid/",
            1,
            ApiException.class),
        new Fault(
            "302, caller's client follows redirects",
            List.of(answer("302 Found", "Location: /elsewhere"), ok(CHARGE)),
            s -> new OkHttpClient.Builder().followRedirects(true),
            null,
            1,
            OutcomeUnknownException.class),
        new Fault(
            "307, caller's client follows redirects",
            List.of(answer("307 Temporary Redirect", "Location: /v2/charges"), ok(CHARGE)),
            s -> new OkHttpClient.Builder().followRedirects(true),
            null,
            1,
            OutcomeUnknownException.class),
        new Fault(
            "response lost after the request was read, caller's client retries",
            List.of(DROP, ok(CHARGE)),
            s -> new OkHttpClient.Builder().retryOnConnectionFailure(true),
            null,
            2,
            null),
        new Fault(
            "caller's interceptor calls proceed again after a 502",
            List.of(answer("502 Bad Gateway"), ok(CHARGE), ok(CHARGE)),
            s -> new OkHttpClient.Builder().addInterceptor(EveryRequestIsAnAttemptTest::resend5xx),
            null,
            2,
            null));
  }

  private static Response resend5xx(okhttp3.Interceptor.Chain chain) throws java.io.IOException {
    Response first = chain.proceed(chain.request());
    if (first.code() < 500) {
      return first;
    }
    first.close();
    return chain.proceed(chain.request());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void serverReceivedRequestsEqualRecordedAttempts(Fault fault) throws Exception {
    FakeTime time = new FakeTime();
    List<Attempt> attempts;
    Throwable thrown = null;
    try (RawHttpServer raw = new RawHttpServer(fault.script());
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(fault.baseUrl() != null ? fault.baseUrl() : raw.baseUrl())
                .okHttpClient(fault.caller().apply(raw).build())
                .clock(time)
                .sleeper(time)
                .jitter(() -> 0.5)
                .breakerPolicy(BreakerPolicy.disabled())
                .build()) {
      CallResult<?> result = null;
      try {
        result = client.execute(Charges.CREATE, ChargeCreateParams.of(1000, "eur"));
      } catch (SafeRetryException e) {
        thrown = e;
      }
      attempts = result != null ? result.attempts() : ((SafeRetryException) thrown).attempts();
      List<RawHttpServer.Received> received = raw.received();

      assertThat(received).as("requests on the socket").hasSize(attempts.size());
      assertThat(received)
          .extracting(r -> r.header("X-Request-Id"))
          .as("request ids on the socket")
          .doesNotHaveDuplicates()
          .containsExactlyElementsOf(attempts.stream().map(Attempt::requestId).toList());
      assertThat(received).extracting(r -> r.header("Idempotency-Key")).hasSize(attempts.size());
    }
    assertThat(attempts).hasSize(fault.attempts());
    if (fault.ending() == null) {
      assertThat(thrown).isNull();
    } else {
      assertThat(thrown).isInstanceOf(fault.ending());
    }
  }

  @Test
  void theCallersAuthenticatorIsNeverAskedAndA401IsTheAnswer() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    try (RawHttpServer raw =
            new RawHttpServer(
                List.of(
                    answer("401 Unauthorized", "WWW-Authenticate: Bearer", "Request-Id: req_1"),
                    ok(CHARGE)));
        LogCapture log = new LogCapture();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(raw.baseUrl())
                .okHttpClient(
                    new OkHttpClient.Builder()
                        .authenticator(
                            (route, response) -> {
                              asked.incrementAndGet();
                              return response.request();
                            })
                        .build())
                .build()) {
      Throwable e =
          catchThrowable(() -> client.execute(Charges.CREATE, ChargeCreateParams.of(1000, "eur")));
      assertThat(e)
          .isInstanceOfSatisfying(
              ApiException.class,
              api -> {
                assertThat(api.status()).isEqualTo(401);
                assertThat(api.attempts())
                    .singleElement()
                    .extracting(Attempt::serverRequestId)
                    .isEqualTo("req_1");
              });
      assertThat(raw.received()).hasSize(1);
      assertThat(log.linesWith("WARN")).anyMatch(l -> l.contains("authenticator is not used"));
    }
    assertThat(asked).hasValue(0);
  }

  @Test
  void aProxyAuthenticatorStillAnswersTheTunnelsChallenge() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    try (RawHttpServer proxy =
            new RawHttpServer(
                List.of(answer("407 Proxy Auth", "Proxy-Authenticate: Basic realm=\"p\""), DROP));
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl("https://api.invalid/")
                .retryPolicy(dev.saferetry.resilience.RetryPolicy.noRetries())
                .okHttpClient(
                    new OkHttpClient.Builder()
                        .proxy(
                            new Proxy(
                                Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", proxy.port())))
                        .proxyAuthenticator(
                            (route, response) -> {
                              if (response.request().header("Proxy-Authorization") != null) {
                                return null;
                              }
                              asked.incrementAndGet();
                              return response
                                  .request()
                                  .newBuilder()
                                  .header("Proxy-Authorization", "Basic dTpw")
                                  .build();
                            })
                        .build())
                .build()) {
      catchThrowable(() -> client.execute(Charges.CREATE, ChargeCreateParams.of(1000, "eur")));
      List<RawHttpServer.Received> received = proxy.received();
      assertThat(received)
          .extracting(RawHttpServer.Received::requestLine)
          .allMatch(line -> line.startsWith("CONNECT api.invalid:443"));
      assertThat(received.get(received.size() - 1).header("Proxy-Authorization"))
          .isEqualTo("Basic dTpw");
    }
    assertThat(asked.get()).isPositive();
  }
}
