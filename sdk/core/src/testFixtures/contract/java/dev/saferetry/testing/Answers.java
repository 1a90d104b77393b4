package dev.saferetry.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;

/** Test helpers for building mock answers and reading what reached the server. */
public final class Answers {
  public static final String CHARGE_JSON =
      "{\"id\":\"ch_1\",\"object\":\"charge\",\"amount\":1000,\"amount_refunded\":0,"
          + "\"currency\":\"eur\",\"status\":\"succeeded\",\"created\":1700000000,"
          + "\"brand_new_field\":{\"x\":1}}";

  private Answers() {}

  public static MockResponse json(int code, String body) {
    return new MockResponse.Builder()
        .code(code)
        .setHeader("Content-Type", "application/json")
        .body(body)
        .build();
  }

  public static MockResponse status(int code) {
    return json(code, "{\"error\":{\"type\":\"api_error\",\"code\":\"c" + code + "\"}}");
  }

  public static MockResponse charge() {
    return json(200, CHARGE_JSON);
  }

  /** The server reads the whole request, then closes the socket without answering. */
  public static MockResponse dropAfterRequest() {
    return new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build();
  }

  /** Takes every request the server received so far (waiting briefly for each). */
  public static List<RecordedRequest> drain(MockWebServer server) throws InterruptedException {
    List<RecordedRequest> out = new ArrayList<>();
    int n = server.getRequestCount();
    for (int i = 0; i < n; i++) {
      RecordedRequest r = server.takeRequest(1, TimeUnit.SECONDS);
      if (r != null) {
        out.add(r);
      }
    }
    return out;
  }

  /** Returns the distinct Idempotency-Key header values of the requests. */
  public static List<String> keys(List<RecordedRequest> requests, String header) {
    return requests.stream().map(r -> r.getHeaders().get(header)).toList();
  }
}
