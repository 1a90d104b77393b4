package dev.saferetry.jdbc.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.resilience.RetryPolicy;
import java.time.Duration;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * A relay's lease outlasts its clients' longest call: a lease that could end while a call is on the
 * wire (letting another relay, or an operator, act on an intent whose charge may still land) is
 * refused when the relay is built, naming the lease and the client's deadline.
 */
class OutboxRelayLeaseLengthTest {

  @Test
  void aLeaseShorterThanAClientsDeadlinePlusItsMarginIsRefusedAtBuild() throws Exception {
    try (TestDatabase database = TestDatabase.Db.H2.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      SafeRetryClient client = client(server, store, "default", Duration.ofSeconds(20));
      SafeRetryClient slow = client(server, store, "tenant-b", Duration.ofSeconds(40));
      assertThatThrownBy(
              () ->
                  OutboxRelay.builder()
                      .store(store)
                      .client(client)
                      .leaseFor(Duration.ofSeconds(1))
                      .build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("leaseFor PT1S")
          .hasMessageContaining("tenant default")
          .hasMessageContaining("deadline PT20S")
          .hasMessageContaining("at least PT25S");
      assertThatThrownBy(
              () ->
                  OutboxRelay.builder()
                      .store(store)
                      .client(client)
                      .leaseFor(Duration.ofSeconds(24))
                      .build())
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(
              OutboxRelay.builder()
                  .store(store)
                  .client(client)
                  .leaseFor(Duration.ofSeconds(25))
                  .build())
          .isNotNull();

      // Every client of the relay counts: the slowest one decides.
      assertThatThrownBy(
              () ->
                  OutboxRelay.builder()
                      .store(store)
                      .client(client)
                      .client(slow)
                      .leaseFor(Duration.ofSeconds(25))
                      .build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tenant tenant-b")
          .hasMessageContaining("deadline PT40S");

      // The default lease (2 minutes) outlasts the default deadline (60 s).
      try (SafeRetryClient defaults =
          SafeRetryClient.builder().baseUrl(server.url("/").toString()).keyStore(store).build()) {
        assertThat(OutboxRelay.builder().store(store).client(defaults).build()).isNotNull();
      }
    }
  }

  private static SafeRetryClient client(
      MockWebServer server, JdbcKeyStore store, String tenant, Duration deadline) {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .tenant(tenant)
        .keyStore(store)
        .retryPolicy(RetryPolicy.defaults().withDeadline(deadline))
        .build();
  }
}
