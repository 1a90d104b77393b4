package dev.saferetry;

import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Outcome;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.testing.Answers;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.SocketEffect;
import okhttp3.OkHttpClient;
import okio.BufferedSink;
import org.junit.jupiter.api.Test;

class BadResponsesTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");
  private static final String API_KEY = "sk_live_do_not_leak_123";

  @Test
  void successWithAnUnparseableBodyIsASucceededTypedError() {
    server.enqueue(json(200, "<html>oops</html>"));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            ResponseBodyException.class,
            e -> {
              assertThat(e.outcome()).isEqualTo(Outcome.SUCCEEDED);
              assertThat(e.status()).isEqualTo(200);
              assertThat(e.key()).isNotNull();
              assertThat(e.getMessage()).doesNotContain("oops");
            });
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void successWithAWrongShapeIsASucceededTypedError() {
    server.enqueue(json(200, "{\"amount\":\"not a number\"}"));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOf(ResponseBodyException.class);
  }

  /** A body of {@code size} bytes produced while it is written, counting what left the server. */
  private static final class EndlessJson implements MockResponseBody {
    final long size;
    final AtomicLong written = new AtomicLong();

    EndlessJson(long size) {
      this.size = size;
    }

    @Override
    public long getContentLength() {
      return size;
    }

    @Override
    public void writeTo(BufferedSink sink) throws IOException {
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) 'x');
      chunk[0] = '[';
      for (long left = size; left > 0; ) {
        int n = (int) Math.min(chunk.length, left);
        sink.write(chunk, 0, n);
        sink.flush();
        written.addAndGet(n);
        left -= n;
        chunk[0] = 'x';
      }
    }
  }

  @Test
  void anOversizedBodyIsRefusedNotBuffered() throws Exception {
    long size = 1L << 30; // 1 GiB: buffering it would exhaust the test JVM's heap
    EndlessJson body = new EndlessJson(size);
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .setHeader("Content-Type", "application/json")
            .body(body)
            .build());
    try (SafeRetryClient c = builder().maxResponseBytes(1024).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              ResponseBodyException.class,
              e -> {
                assertThat(e.getMessage()).contains("limit of 1024 bytes");
                assertThat(e.outcome()).isEqualTo(Outcome.SUCCEEDED);
              });
    }
    // The client stopped reading at the limit and dropped the connection: the server could write
    // only what socket buffers hold, not the body (nor drain it to reuse the connection).
    server.close();
    assertThat(body.written.get()).isLessThan(16L << 20);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void anErrorBodyThatIsNotJsonKeepsTheTextAndTheStatus() {
    server.enqueue(new MockResponse.Builder().code(400).body("Bad Request, plain text").build());
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.errorCode()).isNull();
              assertThat(e.errorType()).isNull();
              assertThat(e.errorBody()).isEqualTo("Bad Request, plain text");
            });
  }

  @Test
  void aTruncatedBodyIsRetriedWithTheSameKey() throws Exception {
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .body("{\"id\":\"ch_1\"")
            .setHeader("Content-Length", "500")
            .onResponseEnd(new SocketEffect.CloseSocket())
            .build());
    server.enqueue(json(200, Answers.CHARGE_JSON));
    CallResult<?> r = call(client, Charges.CREATE, PARAMS);
    assertThat(r.attempts().get(0).failure()).isEqualTo(TransportFailure.UNEXPECTED_EOF);
    assertThat(Answers.keys(drain(server), "Idempotency-Key"))
        .hasSize(2)
        .containsOnly(r.key().value());
  }

  @Test
  void aRedirectOnAPostIsNotFollowed() {
    server.enqueue(
        new MockResponse.Builder().code(302).setHeader("Location", "/elsewhere").build());
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.REDIRECTED));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aResponseThatNeverEndsIsCutByTheDeadline() {
    server.enqueue(json(200, Answers.CHARGE_JSON)); // opens the connection the stalled call reuses
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .body("{")
            .setHeader("Content-Length", "100")
            .onResponseEnd(SocketEffect.Stall.INSTANCE)
            .build());
    // Real time is needed here: the deadline bounds a real socket read. 300 ms keeps it short;
    // the connection is already open, so a loaded machine cannot turn it into a connect timeout.
    try (SafeRetryClient c =
        builder()
            .clock(java.time.Clock.systemUTC())
            .retryPolicy(
                RetryPolicy.defaults().withMaxAttempts(1).withDeadline(Duration.ofMillis(300)))
            .build()) {
      call(c, Charges.CREATE, PARAMS);
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e ->
                  assertThat(e.attempts().get(0).failure())
                      .isEqualTo(TransportFailure.CALL_TIMEOUT));
    }
  }

  @Test
  void credentialsNeverAppearInExceptionMessages() {
    server.enqueue(json(401, "{\"error\":{\"message\":\"bad key " + API_KEY + "\"}}"));
    OkHttpClient http = new OkHttpClient();
    try (SafeRetryClient c = builder().apiKey(API_KEY).okHttpClient(http).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              SafeRetryException.class,
              e -> {
                assertThat(e.getMessage()).doesNotContain(API_KEY);
                assertThat(String.valueOf(e)).doesNotContain(API_KEY);
              });
      assertThat(c.toString()).doesNotContain(API_KEY);
    }
  }

  @Test
  void theApiKeyIsSentAsBearerToken() throws Exception {
    server.enqueue(json(200, Answers.CHARGE_JSON));
    try (SafeRetryClient c = builder().apiKey(API_KEY).build()) {
      call(c, Charges.CREATE, PARAMS);
    }
    assertThat(drain(server).get(0).getHeaders().get("Authorization"))
        .isEqualTo("Bearer " + API_KEY);
  }
}
