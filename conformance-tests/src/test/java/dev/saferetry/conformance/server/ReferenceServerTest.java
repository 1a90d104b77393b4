package dev.saferetry.conformance.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reference server's API, as the SDK's tests and examples rely on it. */
class ReferenceServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHARGE =
      "{\"amount\":1000,\"currency\":\"eur\",\"description\":\"d\"}";
  private final OkHttpClient http =
      new OkHttpClient.Builder()
          .retryOnConnectionFailure(false)
          .readTimeout(Duration.ofSeconds(10))
          .build();
  private ReferenceServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private Response post(String path, String header, String key, String body) throws IOException {
    Request.Builder b =
        new Request.Builder()
            .url(server.baseUrl() + path)
            .header("Authorization", "Bearer tenant_1")
            .post(RequestBody.create(body, MediaType.get("application/json")));
    if (key != null) {
      b.header(header, key);
    }
    return http.newCall(b.build()).execute();
  }

  private static JsonNode json(Response r) throws IOException {
    return JSON.readTree(r.body().string());
  }

  @Test
  void aDatabaseUrlThatCannotBeUsedFailsWithoutItsPassword() {
    ReferenceServer broken =
        ReferenceServer.builder()
            .jdbcUrl("jdbc:postgresql://127.0.0.1:no-port/x?user=app&password=pw2SECRET")
            .build();

    assertThatThrownBy(broken::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot prepare database")
        .hasMessageContaining("jdbc:postgresql://127.0.0.1:no-port/x")
        .hasMessageContaining("password=***")
        .satisfies(
            e -> {
              StringWriter trace = new StringWriter();
              e.printStackTrace(new PrintWriter(trace));
              assertThat(trace.toString()).doesNotContain("pw2SECRET");
            });
  }

  @Test
  void anUnhandledExceptionReleasesTheKeySoThatTheRetryExecutesAtOnce() throws IOException {
    server = ReferenceServer.builder().build().start();
    server.faults().next(Fault.unhandledException());
    try (Response failed = post("/v1/charges", "Idempotency-Key", "k-boom", CHARGE)) {
      assertThat(failed.code()).isEqualTo(500);
      assertThat(json(failed).at("/error/message").asText()).isEqualTo("Internal error");
    }
    assertThat(server.sideEffects("d")).isZero();
    try (Response retry = post("/v1/charges", "Idempotency-Key", "k-boom", CHARGE)) {
      assertThat(retry.code()).as("not 409: nothing holds the key any more").isEqualTo(201);
    }
    assertThat(server.sideEffects("d")).isEqualTo(1);
  }

  @Test
  void chargeIsCreatedWithLocationAndReplayedWithTheMarker() throws IOException {
    server = ReferenceServer.builder().build().start();
    try (Response first = post("/v1/charges", "Idempotency-Key", "k1", CHARGE);
        Response replay = post("/v1/charges", "Idempotency-Key", "k1", CHARGE)) {
      JsonNode charge = json(first);
      assertThat(first.code()).isEqualTo(201);
      assertThat(first.header("Location")).isEqualTo("/v1/charges/" + charge.get("id").asText());
      assertThat(first.header("Request-Id")).startsWith("req_");
      assertThat(first.header("Idempotent-Replayed")).isNull();
      assertThat(replay.code()).isEqualTo(201);
      assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(replay.header("Location")).isEqualTo(first.header("Location"));
      assertThat(json(replay)).isEqualTo(charge);
    }
    assertThat(server.sideEffects()).isEqualTo(1);
    assertThat(server.sideEffects("d")).isEqualTo(1);
  }

  @Test
  void droppedResponseReachesOkHttpAsAnIoErrorAndTheRetryReplays() throws IOException {
    server = ReferenceServer.builder().build().start();
    server.faults().next(Fault.dropAfterCommit());

    assertThatThrownBy(() -> post("/v1/charges", "Idempotency-Key", "k2", CHARGE).close())
        .isInstanceOf(IOException.class);
    try (Response retry = post("/v1/charges", "Idempotency-Key", "k2", CHARGE)) {
      assertThat(retry.code()).isEqualTo(201);
      assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    }
    assertThat(server.sideEffects()).isEqualTo(1);
  }

  @Test
  void keyFromABodyFieldIsExcludedFromTheRequestHash() throws IOException {
    server = ReferenceServer.builder().keyBodyField("idempotency_key").build().start();
    String withKey = "{\"idempotency_key\":\"b1\",\"amount\":1000,\"currency\":\"eur\"}";
    try (Response first = post("/v1/charges", "X-Ignored", null, withKey);
        Response replay = post("/v1/charges", "X-Ignored", null, withKey);
        Response missing = post("/v1/charges", "X-Ignored", null, CHARGE)) {
      assertThat(first.code()).isEqualTo(201);
      assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(missing.code()).isEqualTo(400);
    }
    assertThat(server.sideEffects()).isEqualTo(1);
  }

  @Test
  void customKeyHeaderIsHonoured() throws IOException {
    server = ReferenceServer.builder().keyHeader("PayPal-Request-Id").build().start();
    try (Response first = post("/v1/charges", "PayPal-Request-Id", "p1", CHARGE);
        Response replay = post("/v1/charges", "PayPal-Request-Id", "p1", CHARGE);
        Response wrongHeader = post("/v1/charges", "Idempotency-Key", "p1", CHARGE)) {
      assertThat(first.code()).isEqualTo(201);
      assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(wrongHeader.code()).isEqualTo(400);
    }
  }

  @Test
  void refundOfAnUnknownChargeIsA404ThatIsStoredAndReplayed() throws IOException {
    server = ReferenceServer.builder().build().start();
    String refund = "{\"charge\":\"ch_missing\",\"amount\":5}";
    try (Response first = post("/v1/refunds", "Idempotency-Key", "r1", refund);
        Response replay = post("/v1/refunds", "Idempotency-Key", "r1", refund)) {
      assertThat(first.code()).isEqualTo(404);
      assertThat(replay.code()).isEqualTo(404);
      assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    }
    assertThat(server.sideEffects()).isZero();
  }

  @Test
  void refundChangesTheChargeAndRequestsWithoutATokenAreUnauthorized() throws IOException {
    server = ReferenceServer.builder().build().start();
    String id;
    try (Response charge = post("/v1/charges", "Idempotency-Key", "c1", CHARGE)) {
      id = json(charge).get("id").asText();
    }
    String refund = "{\"charge\":\"" + id + "\",\"amount\":400}";
    // Built whole, not by replacing "400" in the body: a random charge id may contain "400".
    String tooLarge = "{\"charge\":\"" + id + "\",\"amount\":601}";
    try (Response r = post("/v1/refunds", "Idempotency-Key", "r2", refund);
        Response tooMuch = post("/v1/refunds", "Idempotency-Key", "r3", tooLarge);
        Response get =
            http.newCall(
                    new Request.Builder()
                        .url(server.baseUrl() + "/v1/charges/" + id)
                        .header("Authorization", "Bearer tenant_1")
                        .build())
                .execute();
        Response otherTenant =
            http.newCall(
                    new Request.Builder()
                        .url(server.baseUrl() + "/v1/charges/" + id)
                        .header("Authorization", "Bearer tenant_2")
                        .build())
                .execute();
        Response anonymous =
            http.newCall(new Request.Builder().url(server.baseUrl() + "/v1/charges/" + id).build())
                .execute()) {
      assertThat(r.code()).isEqualTo(201);
      assertThat(tooMuch.code()).isEqualTo(400);
      assertThat(json(get).get("amount_refunded").asLong()).isEqualTo(400);
      assertThat(otherTenant.code()).isEqualTo(404);
      assertThat(anonymous.code()).isEqualTo(401);
    }
  }

  @Test
  void keysSurviveARealRestartOnAnH2File(@TempDir Path dir) throws IOException {
    String url = "jdbc:h2:file:" + dir.resolve("db").toAbsolutePath();
    server = ReferenceServer.builder().jdbcUrl(url).build().start();
    String first;
    try (Response r = post("/v1/charges", "Idempotency-Key", "durable", CHARGE)) {
      first = json(r).get("id").asText();
    }
    server.close();
    server = ReferenceServer.builder().jdbcUrl(url).build().start();
    try (Response r = post("/v1/charges", "Idempotency-Key", "durable", CHARGE)) {
      assertThat(r.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(json(r).get("id").asText()).isEqualTo(first);
    }
    assertThat(server.sideEffects()).isEqualTo(1);
  }

  @Test
  void withoutRequiredKeysEveryUnkeyedRequestExecutes() throws IOException {
    server = ReferenceServer.builder().requireKey(false).build().start();
    try (Response a = post("/v1/charges", "Idempotency-Key", null, CHARGE);
        Response b = post("/v1/charges", "Idempotency-Key", null, CHARGE)) {
      assertThat(a.code()).isEqualTo(201);
      assertThat(b.code()).isEqualTo(201);
    }
    assertThat(server.sideEffects()).isEqualTo(2);
  }

  @Test
  void pathVariantsRouteToTheSameOperationAndReplayTheSameKey() throws IOException {
    server = ReferenceServer.builder().build().start();
    try (Response first = post("/v1/charges", "Idempotency-Key", "v1", CHARGE);
        Response slash = post("/v1/charges/", "Idempotency-Key", "v1", CHARGE);
        Response upper = post("/V1/CHARGES", "Idempotency-Key", "v1", CHARGE)) {
      String id = json(first).get("id").asText();
      assertThat(slash.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(json(slash).get("id").asText()).isEqualTo(id);
      assertThat(json(upper).get("id").asText()).isEqualTo(id);
    }
    assertThat(server.sideEffects()).isEqualTo(1);
  }

  @Test
  void listReturnsTheTenantsChargesFilteredByDescription() throws IOException {
    server = ReferenceServer.builder().build().start();
    post("/v1/charges", "Idempotency-Key", "l1", CHARGE).close();
    post("/v1/charges", "Idempotency-Key", "l2", CHARGE.replace("\"d\"", "\"other\"")).close();
    try (Response mine = get("/v1/charges?description=d", "tenant_1");
        Response all = get("/v1/charges", "tenant_1");
        Response theirs = get("/v1/charges?description=d", "tenant_2")) {
      JsonNode data = json(mine).get("data");
      assertThat(data).hasSize(1);
      assertThat(data.get(0).get("description").asText()).isEqualTo("d");
      assertThat(json(all).get("data")).hasSize(2);
      assertThat(json(theirs).get("data")).isEmpty();
    }
  }

  private Response get(String path, String tenant) throws IOException {
    return http.newCall(
            new Request.Builder()
                .url(server.baseUrl() + path)
                .header("Authorization", "Bearer " + tenant)
                .build())
        .execute();
  }
}
