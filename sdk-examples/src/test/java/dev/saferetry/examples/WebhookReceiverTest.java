package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.examples.support.OrderBook;
import dev.saferetry.examples.support.WebhookEndpoint;
import dev.saferetry.examples.support.WebhookEndpoint.Settings;
import dev.saferetry.jdbc.inbox.Inbox;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The example receiver over real HTTP, with deliveries signed here as Stripe documents it. */
class WebhookReceiverTest {
  static final String SECRET = "whsec_example_receiver_test";
  final HttpClient http = HttpClient.newHttpClient();
  final String jdbcUrl = "jdbc:h2:mem:receiver-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
  WebhookEndpoint receiver;
  OrderBook orders;

  @BeforeEach
  void start() throws Exception {
    receiver = WebhookReceiver.start(new Settings(0, SECRET, jdbcUrl, false));
    orders = OrderBook.open(jdbcUrl);
  }

  @AfterEach
  void stop() {
    receiver.close();
  }

  static String event(String id, String type, long created, String order, long refunded) {
    return "{\"id\":\""
        + id
        + "\",\"object\":\"event\",\"type\":\""
        + type
        + "\",\"created\":"
        + created
        + ",\"data\":{\"object\":{\"id\":\"ch_"
        + order
        + "\",\"object\":\"charge\",\"amount\":1999,\"amount_refunded\":"
        + refunded
        + ",\"currency\":\"eur\",\"metadata\":{\"order_id\":\""
        + order
        + "\"}}}}";
  }

  /** Stripe-Signature: t=..., v1=hex(HMAC-SHA256(secret, t + "." + body)). */
  static String sign(String secret, long t, String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] v1 = mac.doFinal((t + "." + body).getBytes(StandardCharsets.UTF_8));
    return "t=" + t + ",v1=" + HexFormat.of().formatHex(v1);
  }

  static long now() {
    return System.currentTimeMillis() / 1000;
  }

  int post(String body, String signature) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url("/webhooks/stripe"))
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (signature != null) {
      request.header("Stripe-Signature", signature);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  int deliver(String body) throws Exception {
    return post(body, sign(SECRET, now(), body));
  }

  /** Delivers {@code body} correctly signed and returns the status and body of the answer. */
  String deliverForAnswer(String body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(url("/webhooks/stripe"))
            .header("Stripe-Signature", sign(SECRET, now(), body))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
    return answer.statusCode() + " " + answer.body();
  }

  Map<String, Object> effects() throws Exception {
    String json =
        http.send(
                HttpRequest.newBuilder(url("/effects")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    @SuppressWarnings("unchecked")
    Map<String, Object> map = new ObjectMapper().readValue(json, Map.class);
    return map;
  }

  URI url(String path) {
    return URI.create("http://127.0.0.1:" + receiver.port() + path);
  }

  @Test
  void aReplayWithTheSameEventIdAppliesOnceAndCreatesTheUnseenOrder() throws Exception {
    String paid = event("evt_1", "charge.succeeded", now(), "order-1", 0);

    assertThat(deliver(paid)).isEqualTo(200);
    assertThat(deliver(paid)).isEqualTo(200);

    assertThat(effects())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("applied", 1, "duplicates", 1, "stale", 0, "ignored", 0, "rejected", 0));
    assertThat(orders.describe("order-1")).isEqualTo("paid 1999/0 eur");
  }

  @Test
  void sixteenConcurrentDuplicatesApplyOnce() throws Exception {
    String paid = event("evt_c", "charge.succeeded", now(), "order-c", 0);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        statuses.add(
            pool.submit(
                () -> {
                  go.await();
                  return deliver(paid);
                }));
      }
      go.countDown();
      for (Future<Integer> status : statuses) {
        assertThat(status.get(60, TimeUnit.SECONDS)).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(effects()).containsEntry("applied", 1).containsEntry("duplicates", 15);
    assertThat(orders.describe("order-c")).isEqualTo("paid 1999/0 eur");
  }

  @Test
  void anOlderEventAfterANewerOneIsAcknowledgedAsStaleAndNotApplied() throws Exception {
    long t = now();
    assertThat(deliver(event("evt_refund", "charge.refunded", t - 10, "order-2", 1999)))
        .isEqualTo(200);
    assertThat(deliver(event("evt_paid", "charge.succeeded", t - 60, "order-2", 0))).isEqualTo(200);

    assertThat(effects()).containsEntry("applied", 1).containsEntry("stale", 1);
    assertThat(orders.describe("order-2")).isEqualTo("refunded 1999/1999 eur");
  }

  @Test
  void tamperedStaleUnsignedAndMalformedDeliveriesAreRejectedWith400() throws Exception {
    String paid = event("evt_x", "charge.succeeded", now(), "order-3", 0);
    String signature = sign(SECRET, now(), paid);

    assertThat(post(paid.replace("1999", "1"), signature)).isEqualTo(400);
    assertThat(post(paid, sign(SECRET, now() - 301, paid))).isEqualTo(400);
    assertThat(post(paid, sign("whsec_wrong", now(), paid))).isEqualTo(400);
    assertThat(post(paid, null)).isEqualTo(400);
    assertThat(post(paid, "t=abc,v1=zz")).isEqualTo(400);
    String noCharge = "{\"id\":\"evt_y\",\"type\":\"charge.succeeded\",\"created\":1}";
    assertThat(deliver(noCharge)).isEqualTo(400);
    assertThat(deliver(paid.replace("\"type\":\"charge.succeeded\",", ""))).isEqualTo(400);
    assertThat(deliver(paid.replaceFirst("\"created\":\\d+", "\"created\":\"soon\"")))
        .isEqualTo(400);

    assertThat(effects())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("applied", 0, "duplicates", 0, "stale", 0, "ignored", 0, "rejected", 8));
    assertThat(orders.describe("order-3")).isNull();
    assertThat(deliver(paid)).isEqualTo(200);
    assertThat(orders.describe("order-3")).isEqualTo("paid 1999/0 eur");
  }

  @Test
  void authenticEventsTheReceiverDoesNotHandleAreAcknowledgedAndCountedAsIgnored()
      throws Exception {
    String customer =
        "{\"id\":\"evt_cus\",\"object\":\"event\",\"type\":\"customer.created\",\"created\":"
            + now()
            + ",\"data\":{\"object\":{\"id\":\"cus_1\",\"object\":\"customer\"}}}";
    String notAnOrder =
        event("evt_other", "charge.succeeded", now(), "order-x", 0)
            .replace("\"metadata\":{\"order_id\":\"order-x\"}", "\"metadata\":{}");

    assertThat(deliverForAnswer(customer)).isEqualTo("200 {\"outcome\":\"IGNORED\"}");
    assertThat(deliverForAnswer(notAnOrder)).isEqualTo("200 {\"outcome\":\"IGNORED\"}");
    assertThat(deliverForAnswer(customer)).isEqualTo("200 {\"outcome\":\"DUPLICATE\"}");

    assertThat(effects())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("applied", 0, "duplicates", 1, "stale", 0, "ignored", 2, "rejected", 0));
    assertThat(orders.describe("order-x")).isNull();
  }

  @Test
  void aPaymentInTheSameSecondAsItsRefundDoesNotUndoIt() throws Exception {
    long t = now();
    assertThat(deliver(event("evt_r", "charge.refunded", t, "order-s", 1999))).isEqualTo(200);
    assertThat(deliver(event("evt_s", "charge.succeeded", t, "order-s", 0))).isEqualTo(200);

    assertThat(effects()).containsEntry("applied", 1).containsEntry("stale", 1);
    assertThat(orders.describe("order-s")).isEqualTo("refunded 1999/1999 eur");
  }

  @Test
  void aRefundInTheSameSecondAsThePaymentIsApplied() throws Exception {
    long t = now();
    assertThat(deliver(event("evt_s", "charge.succeeded", t, "order-t", 0))).isEqualTo(200);
    assertThat(deliver(event("evt_r", "charge.refunded", t, "order-t", 1999))).isEqualTo(200);

    assertThat(effects()).containsEntry("applied", 2).containsEntry("stale", 0);
    assertThat(orders.describe("order-t")).isEqualTo("refunded 1999/1999 eur");
  }

  @Test
  void partialRefundsInOneSecondKeepTheLargerRefundedAmountInEitherOrder() throws Exception {
    long t = now();
    assertThat(deliver(event("evt_r2", "charge.refunded", t, "order-p", 1500))).isEqualTo(200);
    assertThat(deliver(event("evt_r1", "charge.refunded", t, "order-p", 500))).isEqualTo(200);

    assertThat(orders.describe("order-p")).isEqualTo("refunded 1999/1500 eur");
  }

  @Test
  void aRefundIsFinalForItsCharge() throws Exception {
    long t = now();
    assertThat(deliver(event("evt_r", "charge.refunded", t - 5, "order-f", 1999))).isEqualTo(200);
    assertThat(deliver(event("evt_s", "charge.succeeded", t, "order-f", 0))).isEqualTo(200);

    assertThat(orders.describe("order-f")).isEqualTo("refunded 1999/1999 eur");
  }

  @Test
  void aDeliveryWhileTheSameEventIsStillBeingHandledGets503WithRetryAfterAndIsNotRecorded()
      throws Exception {
    receiver.close();
    String url = "jdbc:h2:mem:receiver-busy-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    receiver = WebhookReceiver.start(new Settings(0, SECRET, url + ";LOCK_TIMEOUT=200", false));
    OrderBook book = OrderBook.open(url);
    Inbox other = Inbox.builder().jdbcUrl(url).build();
    String body = event("evt_busy", "charge.succeeded", now(), "order-busy", 0);
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      // Another delivery of the same event holds its uncommitted receipt, then rolls back.
      Future<?> first =
          pool.submit(
              () ->
                  other.receive(
                      "orders",
                      "evt_busy",
                      tx -> {
                        holding.countDown();
                        release.await(30, TimeUnit.SECONDS);
                        throw new IllegalStateException("the first delivery fails");
                      }));
      assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
      HttpResponse<String> busy =
          http.send(
              HttpRequest.newBuilder(url("/webhooks/stripe"))
                  .header("Stripe-Signature", sign(SECRET, now(), body))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(busy.statusCode()).isEqualTo(503);
      assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
      release.countDown();
      assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS))
          .hasRootCauseMessage("the first delivery fails");
      // Nothing was recorded for the busy answer: the redelivery runs and applies the event.
      assertThat(deliverForAnswer(body)).isEqualTo("200 {\"outcome\":\"APPLIED\"}");
      assertThat(book.describe("order-busy")).isEqualTo("paid 1999/0 eur");
      assertThat(deliverForAnswer(body)).isEqualTo("200 {\"outcome\":\"DUPLICATE\"}");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void otherRoutesAndMethodsAreRefused() throws Exception {
    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(url("/webhooks/stripe")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    HttpResponse<String> other =
        http.send(
            HttpRequest.newBuilder(url("/webhooks/stripe/x")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(other.statusCode()).isEqualTo(404);
  }

  @Test
  void theSecretIsRequired() {
    assertThatThrownBy(() -> WebhookReceiver.main(new String[] {"--port", "0"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--secret");
  }
}
