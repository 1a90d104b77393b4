package dev.saferetry.conformance.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each fault does to the wire what its name says, against a real upstream on loopback. */
@Timeout(30)
class FaultProxyTest {
  static final String CHARGE = "{\"id\":\"ch_1\",\"amount\":1}";
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final OkHttpClient http =
      new OkHttpClient.Builder()
          .retryOnConnectionFailure(false)
          .readTimeout(Duration.ofMillis(500))
          .build();
  private HttpServer upstream;
  private FaultProxy proxy;

  @BeforeEach
  void startUpstream() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    upstream.setExecutor(Executors.newFixedThreadPool(4));
    upstream.createContext(
        "/",
        exchange -> {
          try (exchange) {
            String body =
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(
                exchange.getRequestMethod()
                    + " "
                    + exchange.getRequestURI()
                    + " "
                    + exchange.getRequestHeaders().getFirst("Idempotency-Key")
                    + " "
                    + body);
            byte[] answer = CHARGE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Request-Id", "req_up");
            exchange.sendResponseHeaders(201, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(answer);
            }
          }
        });
    upstream.start();
  }

  @AfterEach
  void stop() {
    if (proxy != null) {
      proxy.close();
    }
    upstream.stop(0);
    http.connectionPool().evictAll();
  }

  private void proxyWith(Fault fault) throws IOException {
    proxy =
        FaultProxy.start("http://127.0.0.1:" + upstream.getAddress().getPort(), http, r -> fault);
  }

  private Response post() throws IOException {
    return http.newCall(
            new Request.Builder()
                .url(proxy.baseUrl() + "/v1/charges?x=1")
                .header("Idempotency-Key", "k-1")
                .post(RequestBody.create("{\"amount\":1}", MediaType.get("application/json")))
                .build())
        .execute();
  }

  @Test
  void passForwardsTheRequestAndRelaysTheAnswerUnchanged() throws Exception {
    proxyWith(Fault.pass());
    try (Response r = post()) {
      assertThat(r.code()).isEqualTo(201);
      assertThat(r.header("Request-Id")).isEqualTo("req_up");
      assertThat(r.body().string()).isEqualTo(CHARGE);
    }
    assertThat(received).containsExactly("POST /v1/charges?x=1 k-1 {\"amount\":1}");
  }

  @Test
  void dropResponseLosesTheAnswerAfterTheServerAnsweredAndKeepsIt() throws Exception {
    proxyWith(Fault.dropResponse());
    assertThatThrownBy(this::post).isInstanceOf(IOException.class);
    assertThat(received).hasSize(1);
    assertThat(proxy.lostAnswers())
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.status()).isEqualTo(201);
              assertThat(a.body()).isEqualTo(CHARGE);
              assertThat(a.headers().get("Request-Id")).isEqualTo("req_up");
              assertThat(a.failure()).isNull();
            });
  }

  @Test
  void resetBeforeSendNeverReachesTheServer() throws Exception {
    proxyWith(Fault.resetBeforeSend());
    assertThatThrownBy(this::post).isInstanceOf(IOException.class);
    assertThat(received).isEmpty();
  }

  @Test
  void resetAfterSendReachesTheServerButNotTheAnswer() throws Exception {
    proxyWith(Fault.resetAfterSend());
    assertThatThrownBy(this::post).isInstanceOf(IOException.class);
    assertThat(received).hasSize(1);
  }

  @Test
  void delayHoldsTheAnswerPastTheReadTimeout() throws Exception {
    proxyWith(Fault.delay(Duration.ofSeconds(2)));
    assertThatThrownBy(this::post).isInstanceOf(SocketTimeoutException.class);
    assertThat(received).hasSize(1);
  }

  @Test
  void syntheticAnswersCarryTheirHeadersAndNeverReachTheServer() throws Exception {
    proxyWith(Fault.answer(503, Map.of("Retry-After", "1"), "{\"error\":{}}"));
    for (int i = 0; i < 2; i++) { // the connection stays usable after a synthetic answer
      try (Response r = post()) {
        assertThat(r.code()).isEqualTo(503);
        assertThat(r.header("Retry-After")).isEqualTo("1");
        assertThat(r.body().string()).isEqualTo("{\"error\":{}}");
      }
    }
    assertThat(received).isEmpty();
  }

  @Test
  void thePlanSeesTheRequestAndGetsPassThrough() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    proxy =
        FaultProxy.start(
            "http://127.0.0.1:" + upstream.getAddress().getPort(),
            http,
            r -> {
              seen.add(r.method() + " " + r.target() + " " + r.header("idempotency-key"));
              return r.method().equals("POST") ? Fault.resetBeforeSend() : Fault.pass();
            });
    try (Response r =
        http.newCall(new Request.Builder().url(proxy.baseUrl() + "/v1/charges/ch_1").build())
            .execute()) {
      assertThat(r.code()).isEqualTo(201);
    }
    assertThat(seen).containsExactly("GET /v1/charges/ch_1 null");
    assertThat(received).containsExactly("GET /v1/charges/ch_1 null ");
  }

  @Test
  void aSyntheticAnswerNeedsAStatusAndOnlyItHasOne() {
    assertThatThrownBy(() -> Fault.answer(42, Map.of(), ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Fault.delay(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
