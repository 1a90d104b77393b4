package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.T0;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxBuilder;
import dev.saferetry.jdbc.inbox.InboxException;
import dev.saferetry.jdbc.inbox.InboxResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key store's and the inbox's tables are created on request, checked on start, and refused with
 * a typed error, by the same rules and with their versions in the same {@code saferetry_schema}.
 */
class JdbcSchemaTest {

  /** A component with versioned tables, as a test sees it. */
  enum Component {
    KEY_STORE("saferetry_intents", "V1__saferetry_keystore.sql", 1, 1) {
      @Override
      Built build(TestDatabase db, String table, boolean create) {
        JdbcKeyStore store =
            JdbcKeyStore.builder()
                .dataSource(db.pool())
                .schema(db.schema)
                .table(table)
                .createSchema(create)
                .build();
        return new Built() {
          @Override
          public boolean record() {
            return store.begin(candidate("order-1", "fp", T0)).created();
          }

          @Override
          public boolean recorded() {
            return store.find(SCOPE, "order-1").isPresent();
          }
        };
      }
    },
    INBOX("saferetry_inbox", "V2__saferetry_inbox.sql", 1, 1) {
      @Override
      Built build(TestDatabase db, String table, boolean create) {
        Inbox inbox =
            Inbox.builder()
                .dataSource(db.pool())
                .table(db.table(table))
                .createSchema(create)
                .build();
        return new Built() {
          @Override
          public boolean record() {
            return inbox.receive("billing", "evt_1", tx -> {}) == InboxResult.APPLIED;
          }

          @Override
          public boolean recorded() {
            return inbox.receive("billing", "evt_1", tx -> {}) == InboxResult.DUPLICATE;
          }
        };
      }
    };

    final String table;
    final String scripts;
    final int version;
    final int minReader;

    Component(String table, String scripts, int version, int minReader) {
      this.table = table;
      this.scripts = scripts;
      this.version = version;
      this.minReader = minReader;
    }

    /** The row {@code saferetry_schema} holds for this component's tables named {@code table}. */
    String versionRow(String table) {
      return table + " " + version + " " + minReader;
    }

    abstract Built build(TestDatabase db, String table, boolean create);

    Built build(TestDatabase db, boolean create) {
      return build(db, table, create);
    }

    /** The migration of version 1 for {@code db}, as messages name it. */
    String script(Db db) {
      return "db/saferetry-migration/" + db.name().toLowerCase(Locale.ROOT) + "/" + scripts;
    }
  }

  /** A built component that records one row and finds it again. */
  interface Built {
    boolean record();

    boolean recorded();
  }

  /** What both refusals carry. */
  record Refusal(String table, OptionalInt found, int required, String message) {}

  /** Runs {@code build} expecting the component's typed refusal; returns what it carries. */
  private static Refusal refused(Component component, Runnable build) {
    Throwable e = catchThrowable(build::run);
    if (e instanceof KeyStoreException j && j.table() != null && component == Component.KEY_STORE) {
      return new Refusal(j.table(), j.foundVersion(), j.requiredVersion(), j.getMessage());
    }
    if (e instanceof InboxException i
        && i.kind() == InboxException.Kind.SCHEMA
        && component == Component.INBOX) {
      return new Refusal(i.table(), i.foundVersion(), i.requiredVersion(), i.getMessage());
    }
    throw new AssertionError("expected the " + component + "'s schema refusal", e);
  }

  static Stream<Arguments> everywhere() {
    return Stream.of(Db.values())
        .flatMap(db -> Stream.of(Component.values()).map(c -> Arguments.of(db, c)));
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void aMissingTableIsATypedErrorThatNamesTheScriptToRun(Db db, Component component)
      throws Exception {
    try (TestDatabase database = db.open()) {
      Refusal refusal = refused(component, () -> component.build(database, false));

      assertThat(refusal.found()).isEmpty();
      assertThat(refusal.required()).isEqualTo(component.version);
      assertThat(refusal.table()).isEqualTo(database.table(component.table));
      assertThat(refusal.message())
          .contains(database.table(component.table))
          .contains(component.script(db))
          .contains("saferetry_schema")
          .contains("Flyway or Liquibase")
          .contains("in schema " + database.schema)
          .contains("createSchema(true)");
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void anOlderSchemaIsRefusedAndUpgradedOnRequestKeepingItsRows(Db db, Component component)
      throws Exception {
    try (TestDatabase database = db.open()) {
      assertThat(component.build(database, true).record()).isTrue();
      setVersion(database, component.table, 0, 0);

      Refusal refusal = refused(component, () -> component.build(database, false));
      assertThat(refusal.found()).hasValue(0);
      assertThat(refusal.message())
          .contains("schema version 0 but this SafeRetry needs " + component.version)
          .contains(component.script(db));

      assertThat(component.build(database, true).recorded()).isTrue();
      assertThat(versionRows(database)).containsExactly(component.versionRow(component.table));
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void aNewerSchemaIsUsedWhenCompatibleAndRefusedWhenNot(Db db, Component component)
      throws Exception {
    try (TestDatabase database = db.open()) {
      component.build(database, true);

      // A newer version that still admits this code.
      int v = component.version;
      setVersion(database, component.table, v + 1, v);
      component.build(database, false);

      setVersion(database, component.table, v + 2, v + 1);
      for (boolean create : new boolean[] {false, true}) {
        Refusal refusal = refused(component, () -> component.build(database, create));
        assertThat(refusal.found()).hasValue(v + 2);
        assertThat(refusal.message()).contains("newer SafeRetry");
      }
      assertThat(versionRows(database))
          .containsExactly(component.table + " " + (v + 2) + " " + (v + 1));
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void aTableThatLostItsColumnsIsRefusedDespiteItsVersionRecord(Db db, Component component)
      throws Exception {
    try (TestDatabase database = db.open()) {
      component.build(database, true);
      String altered =
          database.table(component == Component.INBOX ? "saferetry_inbox_marks" : component.table);
      database.execute("DROP TABLE " + altered);
      database.execute("CREATE TABLE " + altered + " (subscriber VARCHAR(10))");

      Refusal refusal = refused(component, () -> component.build(database, false));
      assertThat(refusal.found()).hasValue(component.version);
      assertThat(refusal.message()).contains("lacks its columns");
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void instancesCreatingTheSchemaAtOnceAllSucceedAndRecordItOnce(Db db, Component component)
      throws Exception {
    try (TestDatabase database = db.open()) {
      List<Built> built =
          JdbcBeginRaceTest.race(t -> component.build(database, "shared_tables", true));
      assertThat(built.get(0).record()).isTrue();
      assertThat(built.get(31).recorded()).isTrue();
      assertThat(versionRows(database)).containsExactly(component.versionRow("shared_tables"));
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void theKeyStoreAndTheInboxKeepTheirVersionsSideBySide(Db db, Component component)
      throws Exception {
    try (TestDatabase database = db.open()) {
      for (Component c : Component.values()) {
        c.build(database, true);
      }
      setVersion(database, component.table, 0, 0);

      for (Component c : Component.values()) {
        if (c == component) {
          assertThat(refused(c, () -> c.build(database, false)).found()).hasValue(0);
        } else {
          assertThat(c.build(database, false).recorded()).isFalse();
        }
      }
    }
  }

  @Test
  void byDefaultTheBuildersOnlyCheckAndCreateNothing() throws Exception {
    try (TestDatabase database = Db.H2.open()) {
      refused(
          Component.KEY_STORE,
          () -> JdbcKeyStore.builder().dataSource(database.pool()).schema(database.schema).build());
      refused(
          Component.INBOX,
          () ->
              Inbox.builder()
                  .dataSource(database.pool())
                  .table(database.table("saferetry_inbox"))
                  .build());
      assertThat(
              database.count(
                  "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = '"
                      + database.schema.toUpperCase(Locale.ROOT)
                      + "'"))
          .isZero();
    }
  }

  @Test
  void namesThatCouldCarrySqlAreRefusedBeforeAnyConnection() {
    JdbcKeyStoreBuilder builder =
        JdbcKeyStore.builder().dataSource(new org.h2.jdbcx.JdbcDataSource());
    InboxBuilder inbox = Inbox.builder();
    for (String bad :
        new String[] {
          "intents; DROP TABLE x", "\"quoted\"", "1abc", "", "x".repeat(49), "ü", "a b", "a-b"
        }) {
      assertThatThrownBy(() -> builder.table(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("table");
      assertThatThrownBy(() -> builder.schema(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("schema");
      for (String qualified : new String[] {bad, bad + ".inbox", "payments." + bad}) {
        assertThatThrownBy(() -> inbox.table(qualified))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("table");
      }
    }
    assertThatThrownBy(() -> builder.table("a.b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> inbox.table("a.b.c")).isInstanceOf(IllegalArgumentException.class);
    assertThat(builder.table("x".repeat(48)).schema("_Payments_2")).isSameAs(builder);
    assertThat(inbox.table("_Payments_2." + "x".repeat(48)).table("inbox")).isSameAs(inbox);
  }

  private static void setVersion(
      TestDatabase database, String component, int version, int minReader) throws Exception {
    database.execute(
        "UPDATE "
            + database.table("saferetry_schema")
            + " SET version = "
            + version
            + ", min_reader = "
            + minReader
            + " WHERE component = '"
            + component
            + "'");
  }

  private static List<String> versionRows(TestDatabase database) throws Exception {
    try (Connection c = database.pool().getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT component, version, min_reader FROM "
                    + database.table("saferetry_schema"))) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getInt(3));
      }
      return rows;
    }
  }
}
