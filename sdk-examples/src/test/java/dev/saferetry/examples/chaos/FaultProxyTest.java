package dev.saferetry.examples.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.examples.bench.FixedResponseServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each fault kind of the proxy does to the wire what its name says. */
@Timeout(30)
class FaultProxyTest {
  private FixedResponseServer upstream;
  private FaultProxy proxy;
  private final OkHttpClient http =
      new OkHttpClient.Builder()
          .retryOnConnectionFailure(false)
          .readTimeout(Duration.ofMillis(300))
          .build();

  @BeforeEach
  void startUpstream() throws IOException {
    upstream = FixedResponseServer.start(4);
  }

  @AfterEach
  void stop() {
    if (proxy != null) {
      proxy.close();
    }
    upstream.close();
    http.connectionPool().evictAll();
  }

  private void proxyWith(FaultKind kind) throws IOException {
    URI uri = URI.create(upstream.baseUrl());
    proxy =
        FaultProxy.start(
            new InetSocketAddress(uri.getHost(), uri.getPort()),
            Duration.ofMillis(800),
            () -> kind);
  }

  private Response post() throws IOException {
    return http.newCall(
            new Request.Builder()
                .url(proxy.baseUrl() + "/v1/charges")
                .post(RequestBody.create("{\"amount\":1}", MediaType.get("application/json")))
                .build())
        .execute();
  }

  @Test
  void passForwardsTheAnswer() throws Exception {
    proxyWith(FaultKind.PASS);
    try (Response r = post()) {
      assertThat(r.code()).isEqualTo(200);
      assertThat(r.body().bytes()).isEqualTo(FixedResponseServer.CHARGE);
    }
    assertThat(upstream.requests()).isEqualTo(1);
    assertThat(proxy.counts().get(FaultKind.PASS)).isEqualTo(1);
  }

  @Test
  void dropResponseLosesTheAnswerAfterTheServerAnswered() throws Exception {
    proxyWith(FaultKind.DROP_RESPONSE);
    assertThatThrownBy(this::post).isInstanceOf(IOException.class);
    assertThat(upstream.requests()).isEqualTo(1);
  }

  @Test
  void resetBeforeSendNeverReachesTheServer() throws Exception {
    proxyWith(FaultKind.RESET_BEFORE_SEND);
    assertThatThrownBy(this::post).isInstanceOf(IOException.class);
    assertThat(upstream.requests()).isZero();
  }

  @Test
  void resetAfterSendReachesTheServerButNotTheAnswer() throws Exception {
    proxyWith(FaultKind.RESET_AFTER_SEND);
    assertThatThrownBy(this::post).isInstanceOf(IOException.class);
    assertThat(upstream.awaitRequests(1, 5_000)).isTrue();
  }

  @Test
  void delayHoldsTheAnswerPastTheReadTimeout() throws Exception {
    proxyWith(FaultKind.DELAY_PAST_TIMEOUT);
    assertThatThrownBy(this::post).isInstanceOf(SocketTimeoutException.class);
    assertThat(upstream.requests()).isEqualTo(1);
  }

  @Test
  void syntheticAnswersNeverReachTheServer() throws Exception {
    proxyWith(FaultKind.SYNTHETIC_429);
    try (Response r = post()) {
      assertThat(r.code()).isEqualTo(429);
      assertThat(r.header("Retry-After-Ms")).isEqualTo("20");
    }
    proxy.close();
    for (FaultKind kind : new FaultKind[] {FaultKind.SYNTHETIC_409, FaultKind.SYNTHETIC_503}) {
      proxyWith(kind);
      try (Response r = post()) {
        assertThat(r.code()).isEqualTo(kind == FaultKind.SYNTHETIC_409 ? 409 : 503);
      }
      proxy.close();
    }
    proxy = null;
    assertThat(upstream.requests()).isZero();
  }

  @Test
  void getsPassWithoutFaults() throws Exception {
    proxyWith(FaultKind.RESET_BEFORE_SEND);
    try (Response r =
        http.newCall(new Request.Builder().url(proxy.baseUrl() + "/v1/charges/ch_1").build())
            .execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(proxy.counts().get(FaultKind.PASS)).isEqualTo(1);
  }
}
