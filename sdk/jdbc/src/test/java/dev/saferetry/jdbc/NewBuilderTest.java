package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every built type of the artifact is made the one way the core's client is: {@code builder()} for
 * a new one, {@code newBuilder()} for another with the same settings; a missing required setting is
 * named when building.
 */
class NewBuilderTest {
  private final TestDatabase db = TestDatabase.Db.H2.open();

  @AfterEach
  void close() throws Exception {
    db.close();
  }

  private DataSource h2() {
    return db.pool();
  }

  @Test
  void aStoresNewBuilderBuildsAStoreOnTheSameTable() {
    JdbcKeyStore first =
        JdbcKeyStore.builder().dataSource(h2()).table("nb_intents").createSchema(true).build();
    Instant now = Instant.now();
    IntentRecord candidate =
        IntentRecord.pending(
            new IntentScope("acme", "charge"),
            "order-1",
            IdempotencyKey.random(),
            "fp",
            now,
            Duration.ofHours(1));
    first.begin(candidate);

    JdbcKeyStore second = first.newBuilder().build();

    assertThat(second.toString()).isEqualTo(first.toString());
    assertThat(second.find(candidate.scope(), "order-1")).isPresent();
  }

  @Test
  void aStoreWithoutADataSourceIsRefusedNamingIt() {
    assertThatThrownBy(() -> JdbcKeyStore.builder().build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("dataSource");
  }

  @Test
  void aRelaysNewBuilderKeepsItsStoreAndClientsWithAnOwnerOfItsOwn() {
    JdbcKeyStore store =
        JdbcKeyStore.builder()
            .dataSource(h2())
            .createSchema(true)
            .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
            .build();
    SafeRetryClient client =
        SafeRetryClient.builder().baseUrl("http://127.0.0.1:9/").keyStore(store).build();
    OutboxRelay first = OutboxRelay.builder().store(store).client(client).owner("a").build();

    OutboxRelay second = first.newBuilder().owner("b").build();

    assertThat(second).hasToString("OutboxRelay[b]");
    assertThat(second.runOnce().claimed()).isZero(); // its store's outbox, empty
    assertThat(first).hasToString("OutboxRelay[a]");
  }

  @Test
  void aRelayWithoutAStoreOrAClientIsRefusedNamingIt() {
    JdbcKeyStore store = JdbcKeyStore.builder().dataSource(h2()).createSchema(true).build();
    assertThatThrownBy(() -> OutboxRelay.builder().build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("store");
    assertThatThrownBy(() -> OutboxRelay.builder().store(store).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("client");
  }

  @Test
  void anInboxsNewBuilderBuildsAnInboxOnTheSameTables() {
    Inbox first = Inbox.builder().dataSource(h2()).createSchema(true).build();
    assertThat(first.receive("orders", "m-1", context -> {})).isEqualTo(InboxResult.APPLIED);

    Inbox second = first.newBuilder().build();

    assertThat(second.receive("orders", "m-1", context -> {})).isEqualTo(InboxResult.DUPLICATE);
  }
}
