package dev.saferetry.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * A payment provider on MockWebServer for the starter's tests: answers every charge with 200 and an
 * id (400 when the body mentions {@code reject-}), records what it received, and can hold its
 * answers until released (a send in flight).
 */
final class ProviderServer {
  final MockWebServer server = new MockWebServer();
  final List<RecordedRequest> received = new CopyOnWriteArrayList<>();
  private final AtomicReference<CountDownLatch> gate = new AtomicReference<>();
  private final AtomicReference<CountDownLatch> arrived =
      new AtomicReference<>(new CountDownLatch(1));

  ProviderServer() {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            received.add(request);
            arrived.get().countDown();
            CountDownLatch g = gate.get();
            if (g != null) {
              g.await(30, TimeUnit.SECONDS);
            }
            if (request.getBody() != null && request.getBody().utf8().contains("reject-")) {
              return new MockResponse.Builder()
                  .code(400)
                  .setHeader("Content-Type", "application/json")
                  .body("{\"error\":{\"code\":\"card_declined\"}}")
                  .build();
            }
            return new MockResponse.Builder()
                .code(200)
                .setHeader("Content-Type", "application/json")
                .setHeader("Request-Id", "req_" + received.size())
                .body("{\"id\":\"ch_" + received.size() + "\"}")
                .build();
          }
        });
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String url() {
    return server.url("/").toString();
  }

  /** Holds every answer until {@link #release()}; returns a latch counting the next arrival. */
  CountDownLatch hold() {
    CountDownLatch next = new CountDownLatch(1);
    arrived.set(next);
    gate.set(new CountDownLatch(1));
    return next;
  }

  void release() {
    CountDownLatch g = gate.getAndSet(null);
    if (g != null) {
      g.countDown();
    }
  }

  /** The requests received for an order, by the order id in the body. */
  List<RecordedRequest> forOrder(String orderId) {
    return received.stream()
        .filter(r -> r.getBody() != null && r.getBody().utf8().contains("\"" + orderId + "\""))
        .toList();
  }
}
