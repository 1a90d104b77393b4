package dev.saferetry.crash;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * A payments server that honours idempotency keys like a correct one: the first request with a key
 * performs the side effect (counted per key) and stores its answer; later requests with that key
 * replay the answer. It can hold its first answer until released, to let the test kill the client
 * while the request is in flight.
 */
final class SideEffectServer extends Dispatcher implements AutoCloseable {
  private final MockWebServer server = new MockWebServer();
  private final Map<String, String> answers = new HashMap<>();
  private final Map<String, Integer> sideEffects = new HashMap<>();
  private final List<String> keysReceived = new ArrayList<>();
  private final CountDownLatch executed = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile boolean holdFirstAnswer;

  SideEffectServer() throws IOException {
    server.setDispatcher(this);
    server.start();
  }

  String baseUrl() {
    return server.url("/").toString();
  }

  /** Makes the first executed request wait, after its side effect, until {@link #release()}. */
  void holdFirstAnswer() {
    holdFirstAnswer = true;
  }

  /** Waits until a request performed its side effect. */
  boolean awaitExecuted() throws InterruptedException {
    return executed.await(30, TimeUnit.SECONDS);
  }

  void release() {
    release.countDown();
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
    String key = request.getHeaders().get("Idempotency-Key");
    String replayed;
    String answer;
    synchronized (this) {
      if (key == null) {
        return new MockResponse.Builder().code(400).build();
      }
      keysReceived.add(key);
      replayed = answers.containsKey(key) ? "true" : "false";
      if (!answers.containsKey(key)) {
        sideEffects.merge(key, 1, Integer::sum);
        answers.put(key, chargeJson("ch_" + (answers.size() + 1)));
      }
      answer = answers.get(key);
    }
    if (replayed.equals("false")) {
      executed.countDown();
      if (holdFirstAnswer) {
        release.await(30, TimeUnit.SECONDS);
      }
    }
    return new MockResponse.Builder()
        .code(200)
        .addHeader("Content-Type", "application/json")
        .addHeader("Idempotent-Replayed", replayed)
        .body(answer)
        .build();
  }

  private static String chargeJson(String id) {
    return "{\"id\":\""
        + id
        + "\",\"object\":\"charge\",\"amount\":1000,\"amount_refunded\":0,"
        + "\"currency\":\"eur\",\"status\":\"succeeded\",\"description\":\"order 1\","
        + "\"created\":1767261600}";
  }

  synchronized int sideEffects(String key) {
    return sideEffects.getOrDefault(key, 0);
  }

  synchronized int totalSideEffects() {
    return sideEffects.values().stream().mapToInt(Integer::intValue).sum();
  }

  synchronized List<String> keysReceived() {
    return List.copyOf(keysReceived);
  }

  @Override
  public void close() {
    release();
    server.close();
  }
}
