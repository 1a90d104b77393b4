package dev.saferetry.jdbc;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A table named {@code Intents} next to {@code intents}: on PostgreSQL and H2 (which fold unquoted
 * names) it is the same table; on a MariaDB that tells table names apart by case it would be
 * another table that SafeRetry's schema record takes for the first, so it is refused, saying why.
 */
class TableNameCaseTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void aTableNameDifferingOnlyInCaseIsTheSameTableOrRefusedSayingWhy(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore lower =
            JdbcKeyStore.builder()
                .dataSource(database.pool())
                .schema(database.schema)
                .table("intents")
                .createSchema(true)
                .build()) {
      lower.begin(candidate("order-1", "fp", T0));
      boolean caseSensitive =
          db == Db.MARIADB && database.count("SELECT @@lower_case_table_names") == 0;
      for (boolean create : new boolean[] {true, false}) {
        JdbcKeyStoreBuilder upper =
            JdbcKeyStore.builder()
                .dataSource(database.pool())
                .schema(database.schema)
                .table("Intents")
                .createSchema(create);
        if (caseSensitive) {
          assertThatThrownBy(upper::build)
              .isInstanceOfSatisfying(
                  KeyStoreException.class,
                  e -> assertThat(e.table()).isEqualTo(database.schema + ".Intents"))
              .hasMessageContaining("lower_case_table_names = 0")
              .hasMessageContaining("name the table in lower case (intents)")
              .hasMessageNotContaining("lacks its columns");
        } else {
          try (JdbcKeyStore same = upper.build()) {
            assertThat(same.find(SCOPE, "order-1")).isPresent(); // one table
          }
        }
      }
      assertThat(lower.find(SCOPE, "order-1")).isPresent();
    }
  }
}
