package dev.saferetry.payments;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.conformance.server.ReferenceServer;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import dev.saferetry.testing.provider.Received;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated payments client against the real reference server and saferetry-testing's fake
 * provider: the key where the document says, the same key on every attempt and after a restart, one
 * charge after a lost answer, and every operation the server documents.
 */
class PaymentsClientTest {
  private final List<Duration> waits = new ArrayList<>();

  private SafeRetryClientBuilder client(String baseUrl) {
    return SafeRetryClient.builder()
        .baseUrl(baseUrl)
        .apiKey("sk_test_payments")
        .sleeper(waits::add) // no test waits for real
        .breakerPolicy(BreakerPolicy.disabled());
  }

  private static ChargeCreateParams charge(String description) {
    return ChargeCreateParams.builder()
        .amount(1999L)
        .currency("eur")
        .description(description)
        .build();
  }

  @Test
  void writesCarryTheIntentKeyInTheDocumentsHeaderAndReadsCarryNone() {
    try (FakeProvider fake = FakeProvider.start();
        SafeRetryClient client = client(fake.baseUrl()).build()) {
      PaymentsClient payments = new PaymentsClient(client);
      CallResult<Charge> charge =
          payments.charges().create(charge("order 1"), RequestOptions.none().withIntentId("o-1"));
      payments.charges().retrieve(charge.value().id(), RequestOptions.none());
      payments
          .refunds()
          .create(
              RefundCreateParams.builder().charge(charge.value().id()).build(),
              RequestOptions.none().withIntentId("o-1/refund"));

      List<Received> received = fake.received();
      assertThat(received).extracting(Received::method).containsExactly("POST", "GET", "POST");
      assertThat(received.get(0).key()).isEqualTo(charge.key().value());
      assertThat(received.get(1).key()).isNull();
      assertThat(received.get(2).key()).isNotNull().isNotEqualTo(received.get(0).key());
      assertThat(charge.value().amount()).isEqualTo(1999L);
    }
  }

  @Test
  void aLostAnswerIsRetriedWithTheSameKeyAndTheReferenceServerChargesOnce() {
    try (ReferenceServer server = ReferenceServer.builder().build().start();
        SafeRetryClient client = client(server.baseUrl()).build()) {
      server.faults().next(dev.saferetry.conformance.server.Fault.dropAfterCommit());

      CallResult<Charge> charge =
          new PaymentsClient(client)
              .charges()
              .create(charge("order 2"), RequestOptions.none().withIntentId("order-2/charge"));

      assertThat(charge.attempts()).hasSize(2);
      assertThat(charge.replayed()).isTrue();
      assertThat(server.sideEffects("order 2")).isEqualTo(1);
      assertThat(charge.value().description()).isEqualTo("order 2");
    }
  }

  @Test
  void theSameIntentAfterARestartSendsTheSameKeyAndChargesOnce(@TempDir Path dir) {
    try (FakeProvider fake = FakeProvider.start()) {
      fake.arm(Fault.loseAnswer().times(3)); // the first process never learns the outcome
      for (int process = 1; process <= 2; process++) {
        try (FileKeyStore keys = FileKeyStore.open(dir);
            SafeRetryClient client =
                client(fake.baseUrl())
                    .keyStore(keys)
                    .retryPolicy(dev.saferetry.resilience.RetryPolicy.defaults().withMaxAttempts(3))
                    .build()) {
          try {
            new PaymentsClient(client)
                .charges()
                .create(charge("order 3"), RequestOptions.none().withIntentId("order-3/charge"));
          } catch (dev.saferetry.error.OutcomeUnknownException e) {
            assertThat(process).as("only the first process ends UNKNOWN").isEqualTo(1);
          }
        }
      }
      assertThat(fake.received()).hasSize(4);
      assertThat(fake.received())
          .extracting(Received::key)
          .containsOnly(fake.received().get(0).key());
      assertThat(fake.effects()).hasSize(1);
    }
  }

  @Test
  void theClientHasAnOperationForEveryOperationTheServerDocuments() throws IOException {
    try (ReferenceServer server = ReferenceServer.builder().build().start()) {
      JsonNode doc =
          new ObjectMapper().readTree(URI.create(server.baseUrl() + "/openapi.json").toURL());
      Set<String> documented = new TreeSet<>();
      doc.get("paths")
          .properties()
          .forEach(
              path ->
                  path.getValue()
                      .fieldNames()
                      .forEachRemaining(
                          m -> documented.add(m.toUpperCase(Locale.ROOT) + " " + path.getKey())));

      Set<String> generated = new TreeSet<>();
      for (Class<?> api : List.of(ChargesApi.class, RefundsApi.class)) {
        for (Field field : api.getFields()) {
          if (Modifier.isStatic(field.getModifiers()) && field.getType() == Operation.class) {
            Operation<?, ?> op = (Operation<?, ?>) field.get(null);
            generated.add(op.method() + " " + op.pathTemplate());
            assertThat(op.carriesKey()).as(op.toString()).isEqualTo(op.method().equals("POST"));
          }
        }
      }
      assertThat(generated).isEqualTo(documented);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
