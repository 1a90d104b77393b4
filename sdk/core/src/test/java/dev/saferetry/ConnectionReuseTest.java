package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The SDK's own HTTP client keeps the connections of a burst of concurrent calls for the next
 * burst, instead of closing all but a few (OkHttp's default pool keeps 5 idle) and opening them
 * again: counted on the wire by the server's connection indexes.
 */
class ConnectionReuseTest extends ClientFixture {
  private static final int CALLERS = 16;

  @Test
  void aSecondBurstOfConcurrentCallsReusesTheFirstBurstsConnections() throws Exception {
    AtomicReference<CountDownLatch> arrived = new AtomicReference<>();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            CountDownLatch all = arrived.get();
            all.countDown();
            all.await(10, TimeUnit.SECONDS); // every caller holds a connection at once
            return charge();
          }
        });
    ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    try (SafeRetryClient client = builder().build()) {
      for (int burst = 0; burst < 2; burst++) {
        arrived.set(new CountDownLatch(CALLERS));
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
          calls.add(
              callers.submit(
                  () -> client.execute(Charges.CREATE, ChargeCreateParams.of(100, "eur"))));
        }
        for (Future<?> call : calls) {
          call.get(30, TimeUnit.SECONDS);
        }
      }
    } finally {
      callers.shutdownNow();
    }
    Set<Integer> connections = new HashSet<>();
    for (int i = 0; i < 2 * CALLERS; i++) {
      connections.add(server.takeRequest().getConnectionIndex());
    }
    assertThat(server.getRequestCount()).isEqualTo(2 * CALLERS);
    assertThat(connections).as("connections opened for two bursts of %d", CALLERS).hasSize(CALLERS);
  }
}
