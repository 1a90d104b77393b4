package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A statement that fails leaves the store's pooled connection fit for the next call. */
class JdbcConnectionHygieneTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void aCompletionThatTimedOutOnALockLeavesItsConnectionUsable(Db db) throws Exception {
    String shortLockWait =
        switch (db) {
          case POSTGRESQL -> "SET lock_timeout = '200ms'";
          case H2 -> "SET LOCK_TIMEOUT 200";
          case MARIADB -> "SET SESSION innodb_lock_wait_timeout = 1";
        };
    try (TestDatabase database = db.open();
        JdbcKeyStore setup = database.builder().build();
        JdbcKeyStore store =
            JdbcKeyStore.builder()
                .dataSource(database.newPool(1, shortLockWait))
                .schema(database.schema)
                .build()) {
      IntentRecord intent = setup.begin(candidate("order-1", "fp", T0)).record();
      IntentRecord done = intent.complete(IntentState.SUCCEEDED, 201, "ch_1");
      try (Connection other = database.pool().getConnection();
          Statement st = other.createStatement()) {
        other.setAutoCommit(false);
        st.executeUpdate(
            "UPDATE "
                + database.table("saferetry_intents")
                + " SET status = status WHERE intent_id = 'order-1'");

        assertThatThrownBy(() -> store.complete(done)).isInstanceOf(KeyStoreException.class);
        other.rollback();
      }

      assertThat(store.find(SCOPE, "order-1")).contains(intent); // same, only connection
      store.complete(done);
      assertThat(store.find(SCOPE, "order-1")).contains(done);
    }
  }
}
