package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.saferetry.call.ResponseView;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import okio.Buffer;
import org.junit.jupiter.api.Test;

/**
 * One redaction rule for every text the SDK hands out of an answer: a credential of the call that
 * the server echoes — whole, its prefix, or a run from its middle — is masked alike in the kept
 * body, the headers (names and values), the request id, the attempts, the error fields, the
 * messages and the logs, for a result, a rejection and an unknown outcome.
 */
class EchoedSecretsTest extends BothPaths {
  private static final String API_KEY = "sk_live_51HxQpZ2eZvKYlo2C0123456789";
  private static final String CALL_KEY = "rk_live_9TfWq8mNcX4vBz7LpA0987";
  private static final String TOKEN = "tok_visa_4242424242424242";
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  /** Every echo the server makes: whole, prefix and middle run of each credential. */
  private static final List<String> ECHOES =
      List.of(
          API_KEY,
          API_KEY.substring(0, 14),
          API_KEY.substring(8, 20),
          CALL_KEY,
          CALL_KEY.substring(0, 12),
          CALL_KEY.substring(9, 19),
          TOKEN,
          TOKEN.substring(4, 16));

  private static String echoes() {
    return String.join(" | ", ECHOES);
  }

  /** An answer that echoes every credential in its body, a header value, a header name and id. */
  private static MockResponse echoing(int status, String body) {
    return new MockResponse.Builder()
        .code(status)
        .setHeader("Content-Type", "application/json")
        .setHeader("Request-Id", "req_" + API_KEY.substring(8, 20))
        .addHeader("X-Echo", echoes())
        .addHeader("X-Echo-" + CALL_KEY.substring(0, 12), "named after the key")
        .body(body)
        .build();
  }

  private static String errorBody() {
    return "{\"error\":{\"type\":\"card_error\",\"code\":\"c_"
        + API_KEY.substring(0, 14)
        + "\",\"message\":\"echo: "
        + echoes()
        + "\"}}";
  }

  private static RequestOptions options() {
    return RequestOptions.none()
        .withKeepBody(true)
        .withApiKey(CALL_KEY)
        .withHeader("X-Card-Token", "Bearer " + TOKEN);
  }

  /** Every text a view hands out: the body, every header name and value, the request id. */
  private static List<String> texts(ResponseView view) {
    List<String> out = new ArrayList<>();
    out.add(new String(view.body().orElseThrow(), StandardCharsets.UTF_8));
    for (Map.Entry<String, List<String>> h : view.headers().entrySet()) {
      out.add(h.getKey());
      out.addAll(h.getValue());
    }
    view.header("X-Echo").ifPresent(out::add);
    out.add(view.serverRequestId());
    out.add(view.toString());
    return out;
  }

  private static List<String> texts(SafeRetryException e) {
    List<String> out = new ArrayList<>(texts(e.response().orElseThrow()));
    out.add(e.getMessage());
    out.add(String.valueOf(e));
    out.add(e.attempts().toString());
    e.attempts().forEach(a -> out.add(a.serverRequestId()));
    if (e instanceof ApiException api) {
      out.add(api.errorType());
      out.add(api.errorCode());
      out.add(api.errorMessage());
      out.add(api.errorBody());
    }
    return out;
  }

  private static void assertNoEcho(List<String> texts) {
    for (String text : texts) {
      for (String echo : ECHOES) {
        assertThat(text).doesNotContain(echo);
      }
    }
  }

  private SafeRetryClient keyed() {
    return builder().apiKey(API_KEY).build();
  }

  @Test
  void aResultsKeptBodyHeadersAndRequestIdMaskAnEchoedCredential() throws Exception {
    String body = chargeWith("echo: " + echoes());
    server.enqueue(echoing(200, body));
    CallResult<Charge> r;
    String logged;
    try (SafeRetryClient c = keyed();
        LogCapture log = new LogCapture()) {
      r = call(c, Charges.CREATE, PARAMS, options());
      logged = log.text();
    }
    List<String> texts = new ArrayList<>(texts(r.response()));
    texts.add(r.attempts().toString());
    texts.add(logged);
    assertNoEcho(texts);
    String kept = new String(r.response().body().orElseThrow(), StandardCharsets.UTF_8);
    assertThat(kept).startsWith("{\"id\":\"ch_1\"").contains("[redacted]");
    assertThat(r.response().header("X-Echo").orElseThrow()).contains("[redacted]");
    assertThat(r.response().serverRequestId()).startsWith("req").endsWith("[redacted]");
    assertThat(r.response().headers()).containsKey("X-Echo-[redacted]");
  }

  @Test
  void aRejectionHandsOutNoEchoedCredentialAnywhere() throws Exception {
    server.enqueue(echoing(402, errorBody()));
    ApiException e;
    String logged;
    try (SafeRetryClient c = keyed();
        LogCapture log = new LogCapture()) {
      e =
          catchThrowableOfType(
              ApiException.class, () -> call(c, Charges.CREATE, PARAMS, options()));
      logged = log.text();
    }
    List<String> texts = texts(e);
    texts.add(logged);
    assertNoEcho(texts);
    // The kept body is the error body, masked by the same rule.
    assertThat(new String(e.response().orElseThrow().body().orElseThrow(), StandardCharsets.UTF_8))
        .isEqualTo(e.errorBody());
  }

  @Test
  void anUnknownOutcomeHandsOutNoEchoedCredentialAnywhere() throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(echoing(503, errorBody()));
    }
    OutcomeUnknownException e;
    String logged;
    try (SafeRetryClient c = keyed();
        LogCapture log = new LogCapture()) {
      e =
          catchThrowableOfType(
              OutcomeUnknownException.class, () -> call(c, Charges.CREATE, PARAMS, options()));
      logged = log.text();
    }
    List<String> texts = texts(e);
    texts.add(logged);
    assertNoEcho(texts);
    assertThat(e.attempts()).hasSize(4);
  }

  @Test
  void aKeptBodyIsMaskedByteForByteAndOtherwiseUnchanged() throws Exception {
    // Non-ASCII text around the echo: only the echoed run changes, every other byte is kept.
    String before = "{\"id\":\"ch_1\",\"description\":\"caf\u00e9 \uD83D\uDE00 ";
    String after = " \u00fcber\",\"amount\":1000,\"currency\":\"eur\"}";
    server.enqueue(echoing(200, before + API_KEY + after));
    server.enqueue(echoing(200, before + after));
    try (SafeRetryClient c = keyed()) {
      byte[] masked = call(c, Charges.CREATE, PARAMS, options()).response().body().orElseThrow();
      assertThat(masked)
          .isEqualTo((before + "[redacted]" + after).getBytes(StandardCharsets.UTF_8));
      byte[] clean = call(c, Charges.CREATE, PARAMS, options()).response().body().orElseThrow();
      assertThat(clean).isEqualTo((before + after).getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void bytesThatAreNotTextAreKeptExceptTheEcho() throws Exception {
    Buffer body = new Buffer();
    body.write(new byte[] {(byte) 0xff, (byte) 0xfe, 0, (byte) 0x80});
    body.writeUtf8(API_KEY.substring(3, 15));
    body.write(new byte[] {(byte) 0xc3, (byte) 0x28});
    server.enqueue(new MockResponse.Builder().code(400).body(body).setHeader("X-Raw", "1").build());
    try (SafeRetryClient c = keyed()) {
      ApiException e =
          catchThrowableOfType(
              ApiException.class, () -> call(c, Charges.CREATE, PARAMS, options()));
      Buffer expected = new Buffer();
      expected.write(new byte[] {(byte) 0xff, (byte) 0xfe, 0, (byte) 0x80});
      expected.writeUtf8("[redacted]");
      expected.write(new byte[] {(byte) 0xc3, (byte) 0x28});
      assertThat(e.response().orElseThrow().body().orElseThrow())
          .isEqualTo(expected.readByteArray());
    }
  }

  private static String chargeWith(String description) {
    return "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":1000,\"currency\":\"eur\","
        + "\"status\":\"succeeded\",\"description\":\""
        + description
        + "\"}";
  }
}
