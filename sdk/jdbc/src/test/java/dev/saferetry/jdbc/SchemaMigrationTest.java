package dev.saferetry.jdbc;

import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.jdbc.keystore.JdbcBeginRaceTest;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.OutboxRelayTest;
import dev.saferetry.jdbc.outbox.RelayPass;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.sql.DataSource;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import mockwebserver3.MockWebServer;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The migrations in {@code db/saferetry-migration/<database>/}, applied by Flyway or Liquibase into
 * an application's schema, give tables the SDK accepts without {@code createSchema(true)}, and the
 * same tables the SDK creates itself under other names.
 */
class SchemaMigrationTest {

  /** A migration tool applying the files into the connection's default schema. */
  enum Tool {
    FLYWAY {
      @Override
      void migrate(DataSource ds, Db db) {
        MigrateResult result = flyway(ds, db).migrate();
        assertThat(result.migrationsExecuted).isEqualTo(2);
        assertThat(flyway(ds, db).migrate().migrationsExecuted).isZero();
        flyway(ds, db).validate();
      }

      /**
       * Beside an application's own migrations: a history table of its own, and a baseline below
       * version 1 because the schema already holds the application's tables.
       */
      private Flyway flyway(DataSource ds, Db db) {
        return Flyway.configure()
            .dataSource(ds)
            .locations("classpath:db/saferetry-migration/" + db.name().toLowerCase(Locale.ROOT))
            .table("saferetry_flyway_history")
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .load();
      }
    },
    LIQUIBASE {
      @Override
      void migrate(DataSource ds, Db db) throws Exception {
        for (int run = 0; run < 2; run++) { // the second run finds nothing to do
          try (Connection c = ds.getConnection()) {
            Database database =
                DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(c));
            new CommandScope(UpdateCommandStep.COMMAND_NAME)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                .addArgumentValue(
                    UpdateCommandStep.CHANGELOG_FILE_ARG, "db/saferetry-migration/changelog.xml")
                .execute();
          }
        }
      }
    };

    abstract void migrate(DataSource ds, Db db) throws Exception;
  }

  static Stream<Arguments> everywhere() {
    return Stream.of(Db.values())
        .flatMap(db -> Stream.of(Tool.values()).map(t -> Arguments.of(db, t)));
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void tablesAToolCreatedAreAcceptedByTheStoreTheOutboxAndTheInbox(Db db, Tool tool)
      throws Exception {
    try (TestDatabase database = db.open();
        HikariDataSource app = inSchema(database)) {
      database.execute("CREATE TABLE " + database.table("app_orders") + " (id INTEGER)");
      tool.migrate(app, db);

      assertThat(versionRows(database))
          .containsExactlyInAnyOrder("saferetry_inbox 1 1", "saferetry_intents 1 1");
      useEverything(database);
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void theToolsTablesAreTheOnesTheSdkCreatesUnderOtherNames(Db db, Tool tool) throws Exception {
    try (TestDatabase database = db.open();
        HikariDataSource app = inSchema(database)) {
      tool.migrate(app, db);
      database.builder().table("copy_intents").build().close();
      Inbox.builder()
          .dataSource(database.pool())
          .table(database.table("copy_inbox"))
          .createSchema(true)
          .build();

      for (String[] pair :
          new String[][] {
            {"saferetry_intents", "copy_intents"},
            {"saferetry_intents_order", "copy_intents_order"},
            {"saferetry_intents_audit", "copy_intents_audit"},
            {"saferetry_inbox", "copy_inbox"},
            {"saferetry_inbox_marks", "copy_inbox_marks"}
          }) {
        List<String> expected = shape(database, pair[0], pair[0]);
        assertThat(expected).as(pair[0]).hasSizeGreaterThan(2);
        assertThat(shape(database, pair[1], pair[0])).as(pair[1]).isEqualTo(expected);
      }
      assertThat(versionRows(database))
          .containsExactlyInAnyOrder(
              "saferetry_inbox 1 1", "saferetry_intents 1 1", "copy_inbox 1 1", "copy_intents 1 1");
    }
  }

  @ParameterizedTest
  @MethodSource("everywhere")
  void tablesTheSdkCreatedAreAdoptedByTheToolWithoutChange(Db db, Tool tool) throws Exception {
    try (TestDatabase database = db.open();
        HikariDataSource app = inSchema(database)) {
      database.builder().build().close();
      Inbox.builder()
          .dataSource(database.pool())
          .table(database.table("saferetry_inbox"))
          .createSchema(true)
          .build();
      List<String> before = shape(database, "saferetry_intents", "saferetry_intents");

      tool.migrate(app, db);

      assertThat(shape(database, "saferetry_intents", "saferetry_intents")).isEqualTo(before);
      assertThat(versionRows(database))
          .containsExactlyInAnyOrder("saferetry_inbox 1 1", "saferetry_intents 1 1");
      JdbcKeyStore.builder()
          .dataSource(database.pool())
          .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
          .schema(database.schema)
          .build()
          .close();
    }
  }

  /** Begin and complete, enqueue and relay one intent, receive one message: all on the tables. */
  private static void useEverything(TestDatabase database) throws Exception {
    try (JdbcKeyStore store =
            JdbcKeyStore.builder()
                .dataSource(database.pool())
                .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                .schema(database.schema)
                .build();
        MockWebServer server = new MockWebServer()) {
      IntentRecord begun = JdbcBeginRaceTest.candidate("order-0", "fp", JdbcBeginRaceTest.T0);
      assertThat(store.begin(begun).created()).isTrue();
      store.complete(begun.complete(IntentState.SUCCEEDED, 200, "ch_0"));
      assertThat(store.find(begun.scope(), "order-0").orElseThrow().state())
          .isEqualTo(IntentState.SUCCEEDED);

      server.start(0);
      FakeTime time = OutboxRelayTest.atDatabaseTime();
      try (SafeRetryClient client = OutboxRelayTest.client(server, time, store)) {
        OutboxRelayTest.enqueue(database, store, client, time, true, 1);
        server.enqueue(charge());
        RelayPass pass = OutboxRelayTest.relay(store, client, time).build().runOnce();
        assertThat(pass.succeeded()).isEqualTo(1);
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(client.pendingIntents()).isEmpty();
      }
    }
    Inbox inbox =
        Inbox.builder()
            .dataSource(database.pool())
            .table(database.table("saferetry_inbox"))
            .build();
    assertThat(inbox.receive("billing", "evt_1", tx -> {})).isEqualTo(InboxResult.APPLIED);
    assertThat(inbox.receive("billing", "evt_1", tx -> {})).isEqualTo(InboxResult.DUPLICATE);
  }

  /** A pool whose connections have the test's schema as their default, as an application's has. */
  private static HikariDataSource inSchema(TestDatabase database) {
    String url =
        switch (database.db) {
          case H2 -> database.url + ";SCHEMA=" + database.schema.toUpperCase(Locale.ROOT);
          case POSTGRESQL ->
              database.url
                  + (database.url.contains("?") ? "&" : "?")
                  + "currentSchema="
                  + database.schema;
          case MARIADB -> database.url.replaceFirst("(//[^/]+/)[^?]*", "$1" + database.schema);
        };
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl(url);
    ds.setMaximumPoolSize(2);
    return ds;
  }

  /**
   * The columns (name, type, size, nullability, default) and indexes (columns, uniqueness) of a
   * table, with its name replaced by {@code as} in index names.
   */
  private static List<String> shape(TestDatabase database, String table, String as)
      throws SQLException {
    boolean h2 = database.db == Db.H2;
    String schema = h2 ? database.schema.toUpperCase(Locale.ROOT) : database.schema;
    String name = h2 ? table.toUpperCase(Locale.ROOT) : table;
    String catalog = database.db == Db.MARIADB ? schema : null;
    String schemaPattern = database.db == Db.MARIADB ? null : schema;
    List<String> out = new ArrayList<>();
    try (Connection c = database.pool().getConnection()) {
      DatabaseMetaData meta = c.getMetaData();
      try (ResultSet rs = meta.getColumns(catalog, schemaPattern, name, null)) {
        while (rs.next()) {
          out.add(
              String.join(
                  " ",
                  rs.getString("COLUMN_NAME"),
                  rs.getString("TYPE_NAME"),
                  rs.getString("COLUMN_SIZE"),
                  rs.getString("IS_NULLABLE"),
                  String.valueOf(rs.getString("COLUMN_DEF"))));
        }
      }
      TreeMap<String, String> indexes = new TreeMap<>();
      try (ResultSet rs = meta.getIndexInfo(catalog, schemaPattern, name, false, false)) {
        while (rs.next()) {
          String index = rs.getString("INDEX_NAME");
          if (index == null
              || index.toLowerCase(Locale.ROOT).contains("primary")
              || index.toLowerCase(Locale.ROOT).endsWith("_pkey")) {
            continue; // generated names
          }
          boolean unique = !rs.getBoolean("NON_UNIQUE");
          String key = // a unique constraint's index has a generated name
              unique || !index.toLowerCase(Locale.ROOT).startsWith(table)
                  ? unique ? "unique" : "index"
                  : as + index.substring(table.length());
          indexes.merge(
              key.toLowerCase(Locale.ROOT),
              rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT),
              (a, b) -> a + "," + b);
        }
      }
      indexes.forEach((k, v) -> out.add("index " + k + " (" + v + ")"));
    }
    return out;
  }

  private static List<String> versionRows(TestDatabase database) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = database.pool().getConnection();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT component, version, min_reader FROM "
                        + database.table("saferetry_schema"))) {
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getInt(3));
      }
    }
    return rows;
  }
}
