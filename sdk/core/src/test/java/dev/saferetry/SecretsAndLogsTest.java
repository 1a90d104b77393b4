package dev.saferetry;

import static dev.saferetry.RawHttpServer.answer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.saferetry.error.ApiException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Secrets never reach a message, a log line or {@code toString()}, and a server cannot write into
 * the client's logs. "Secrets" are the credentials the client sends: the API key, credential
 * headers of a call, user info and query of the base URL. The idempotency key is not one: it is
 * printed on purpose so that the caller can retry the same intent.
 */
class SecretsAndLogsTest {
  private static final String API_KEY = "sk_live_51HxQpZ2eZvKYlo2C0123456789";
  private static final String TOKEN = "tok_visa_4242424242424242";
  private final FakeTime time = new FakeTime();

  private SafeRetryClientBuilder builder(String baseUrl) {
    return SafeRetryClient.builder()
        .baseUrl(baseUrl)
        .apiKey(API_KEY)
        .clock(time)
        .sleeper(time)
        .breakerPolicy(BreakerPolicy.disabled());
  }

  @Test
  void toStringShowsNeitherTheApiKeyNorTheBaseUrlsQueryOrPassword() {
    try (SafeRetryClient client =
        builder("https://api.example.com/v2/?access_token=qs-secret").build()) {
      assertThat(List.of(client.toString(), client.newBuilder().toString()))
          .allSatisfy(
              s ->
                  assertThat(s)
                      .contains("api.example.com")
                      .doesNotContain("qs-secret")
                      .doesNotContain(API_KEY));
    }
    SafeRetryClientBuilder withUserInfo = builder("https://merchant:pa55w0rd-xyz@api.example.com/");
    assertThat(withUserInfo.toString()).doesNotContain("pa55w0rd").doesNotContain("merchant");
  }

  /** An error answer whose every server-supplied field echoes a credential and forges a line. */
  private static String hostileAnswer() {
    String body =
        "{\"error\":{\"type\":\"invalid_request_error\\n[main] INFO dev.saferetry - forged\","
            + "\"code\":\"key_"
            + API_KEY
            + "_invalid\",\"message\":\"No such key: "
            + API_KEY.substring(0, 14)
            + "... and token "
            + TOKEN
            + "\",\"param\":\"x\"}}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n"
        + "Request-Id: req_"
        + API_KEY.substring(8, 20)
        + "\r[main] WARN dev.saferetry - forged \u001b[2J\r\n"
        + "Content-Length: "
        + bytes.length
        + "\r\n\r\n"
        + body;
  }

  @Test
  void serverTextInMessagesAndLogsIsMaskedSanitisedAndCapped() throws Exception {
    ApiException e;
    String logged;
    try (RawHttpServer raw = new RawHttpServer(List.of(hostileAnswer()));
        LogCapture log = new LogCapture();
        SafeRetryClient client = builder(raw.baseUrl()).build()) {
      e =
          catchThrowableOfType(
              ApiException.class,
              () ->
                  client.execute(
                      Charges.CREATE,
                      ChargeCreateParams.of(1000, "eur"),
                      RequestOptions.none().withHeader("X-Card-Token", "Bearer " + TOKEN)));
      logged = log.text();
    }
    List<String> everything =
        List.of(
            e.getMessage(),
            String.valueOf(e),
            e.errorType(),
            e.errorCode(),
            e.errorMessage(),
            e.errorBody(),
            e.attempts().get(0).serverRequestId(),
            e.attempts().toString(),
            logged);
    for (String text : everything) {
      assertThat(text)
          .doesNotContain(API_KEY)
          .doesNotContain(API_KEY.substring(0, 14))
          .doesNotContain(API_KEY.substring(8, 20))
          .doesNotContain(TOKEN);
    }
    assertThat(e.getMessage())
        .contains("HTTP 401")
        .contains("[redacted]")
        .contains(e.key().value()) // the idempotency key is printed on purpose
        .doesNotContain("\n")
        .doesNotContain("\r")
        .doesNotContain("\u001b");
    assertThat(e.attempts().get(0).serverRequestId())
        .startsWith("req")
        .contains("[redacted]")
        .hasSizeLessThan(140);
    // No log line was forged: every line the test binding printed starts as it does.
    assertThat(logged.lines())
        .allMatch(l -> l.startsWith("[") || l.isBlank() || l.startsWith("\t"));
    assertThat(logged.lines().filter(l -> l.contains("forged")))
        .allMatch(l -> l.contains("attempt 1/") || l.contains("HTTP 401"));
    assertThat(logged).contains("attempt 1/4 -> 401");
  }

  @Test
  void aHugeServerCodeIsCappedInTheMessage() throws Exception {
    String code = "c".repeat(100_000);
    String body = "{\"error\":{\"type\":\"t\",\"code\":\"" + code + "\"}}";
    String answer =
        "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nRequest-Id: "
            + "r".repeat(5_000)
            + "\r\nContent-Length: "
            + body.length()
            + "\r\n\r\n"
            + body;
    try (RawHttpServer raw = new RawHttpServer(List.of(answer));
        SafeRetryClient client = builder(raw.baseUrl()).build()) {
      ApiException e =
          catchThrowableOfType(
              ApiException.class,
              () -> client.execute(Charges.CREATE, ChargeCreateParams.of(1000, "eur")));
      assertThat(e.getMessage()).hasSizeLessThan(1_000);
      assertThat(e.attempts().get(0).serverRequestId()).hasSizeLessThanOrEqualTo(131);
    }
  }

  @Test
  void anAnswerWithoutEchoesIsLeftAlone() throws Exception {
    String body = "{\"error\":{\"type\":\"card_error\",\"code\":\"card_declined\"}}";
    String declined =
        answer("402 Payment Required", "Request-Id: req_8dKq2")
                .replace(
                    "Content-Length: 0\r\n\r\n", "Content-Length: " + body.length() + "\r\n\r\n")
            + body;
    try (RawHttpServer raw = new RawHttpServer(List.of(declined));
        SafeRetryClient client = builder(raw.baseUrl()).build()) {
      ApiException e =
          catchThrowableOfType(
              ApiException.class,
              () -> client.execute(Charges.CREATE, ChargeCreateParams.of(1000, "eur")));
      assertThat(e.errorType()).isEqualTo("card_error");
      assertThat(e.errorCode()).isEqualTo("card_declined");
      assertThat(e.attempts().get(0).serverRequestId()).isEqualTo("req_8dKq2");
      assertThat(e.getMessage())
          .startsWith("HTTP 402 card_error (card_declined), server request id req_8dKq2");
    }
  }
}
