package dev.saferetry.jdbc;

import static dev.saferetry.jdbc.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.jdbc.TestDatabase.Db;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The schema is created on request, checked on start, and refused with a typed error. */
class JdbcSchemaTest {

  @ParameterizedTest
  @EnumSource(Db.class)
  void aMissingTableIsATypedErrorThatSaysWhatToDo(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      assertThatThrownBy(() -> database.builder().createSchema(false).build())
          .isInstanceOfSatisfying(
              JdbcSchemaException.class,
              e -> {
                assertThat(e.foundVersion()).isEmpty();
                assertThat(e.requiredVersion()).isEqualTo(1);
                assertThat(e.table()).isEqualTo(database.table("saferetry_intents"));
              })
          .hasMessageContaining(database.table("saferetry_intents"))
          .hasMessageContaining("createSchema(true)");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anOlderSchemaIsRefusedAndUpgradedOnRequestKeepingItsRows(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      IntentRecord kept = candidate("order-1", "fp", T0);
      try (JdbcKeyStore store = database.builder().build()) {
        store.begin(kept);
      }
      setVersion(database, 0, 0);

      assertThatThrownBy(() -> database.builder().createSchema(false).build())
          .isInstanceOfSatisfying(
              JdbcSchemaException.class,
              e -> assertThat(e.foundVersion()).isEqualTo(OptionalInt.of(0)))
          .hasMessageContaining("schema version 0 but this SafeRetry needs 1");

      try (JdbcKeyStore upgraded = database.builder().createSchema(true).build()) {
        assertThat(upgraded.find(SCOPE, "order-1")).contains(kept);
      }
      assertThat(versionRows(database)).containsExactly("saferetry_intents 1 1");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aNewerSchemaIsUsedWhenCompatibleAndRefusedWhenNot(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      database.builder().build().close();

      setVersion(database, 2, 1); // a newer version that still admits version-1 code
      database.builder().createSchema(false).build().close();

      setVersion(database, 3, 2);
      for (boolean create : new boolean[] {false, true}) {
        assertThatThrownBy(() -> database.builder().createSchema(create).build())
            .isInstanceOfSatisfying(
                JdbcSchemaException.class,
                e -> assertThat(e.foundVersion()).isEqualTo(OptionalInt.of(3)))
            .hasMessageContaining("newer SafeRetry");
      }
      assertThat(versionRows(database)).containsExactly("saferetry_intents 3 2");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aTableThatLostItsColumnsIsRefusedDespiteItsVersionRecord(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      database.builder().build().close();
      database.execute("DROP TABLE " + database.table("saferetry_intents"));
      database.execute(
          "CREATE TABLE " + database.table("saferetry_intents") + " (tenant VARCHAR(10))");

      assertThatThrownBy(() -> database.builder().createSchema(false).build())
          .isInstanceOf(JdbcSchemaException.class)
          .hasMessageContaining("lacks its columns");
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void instancesCreatingTheSchemaAtOnceAllSucceedAndRecordItOnce(Db db) throws Exception {
    try (TestDatabase database = db.open()) {
      List<JdbcKeyStore> stores =
          JdbcBeginRaceTest.race(
              t ->
                  JdbcKeyStore.builder(database.pool())
                      .schema(database.schema)
                      .table("shared_intents")
                      .createSchema(true)
                      .build());
      assertThat(stores.get(0).begin(candidate("order-1", "fp", T0)).created()).isTrue();
      assertThat(stores.get(31).begin(candidate("order-1", "fp", T0)).created()).isFalse();
      assertThat(versionRows(database)).containsExactly("shared_intents 1 1");
    }
  }

  @Test
  void namesThatCouldCarrySqlAreRefusedBeforeAnyConnection() {
    JdbcKeyStoreBuilder builder = JdbcKeyStore.builder(new org.h2.jdbcx.JdbcDataSource());
    for (String bad :
        new String[] {
          "intents; DROP TABLE x", "a.b", "\"quoted\"", "1abc", "", "x".repeat(49), "ü", "a b"
        }) {
      assertThatThrownBy(() -> builder.table(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("table");
      assertThatThrownBy(() -> builder.schema(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("schema");
    }
    assertThat(builder.table("x".repeat(48)).schema("_Payments_2")).isSameAs(builder);
  }

  private static void setVersion(TestDatabase database, int version, int minReader)
      throws Exception {
    database.execute(
        "UPDATE "
            + database.table("saferetry_schema")
            + " SET version = "
            + version
            + ", min_reader = "
            + minReader);
  }

  private static List<String> versionRows(TestDatabase database) throws Exception {
    try (Connection c = database.pool().getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT component, version, min_reader FROM "
                    + database.table("saferetry_schema"))) {
      List<String> rows = new java.util.ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getInt(3));
      }
      return rows;
    }
  }
}
