package dev.saferetry.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.testing.provider.Dialect;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javax.sql.DataSource;

/** The transactional outbox ([jdbc-url], else H2): orders and charge intents commit together. */
public final class Outbox {
  public static final IntentScope SCOPE =
      new IntentScope(IntentScope.DEFAULT_TENANT, "create-charge");
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final Duration DAY = Duration.ofHours(24); // how long an intent is kept

  public static void main(String[] args) throws Exception {
    byte[] seal = "saferetry-examples-demo-seal-key".getBytes(UTF_8); // yours: from your secrets
    HikariDataSource db = new HikariDataSource();
    db.setJdbcUrl(args.length > 0 ? args[0] : "jdbc:h2:mem:outbox;DB_CLOSE_DELAY=-1");
    System.out.println("database " + db.getJdbcUrl().replaceAll("password=[^&;]*", ""));
    var stores = JdbcKeyStore.builder().dataSource(db).createSchema(true);
    var clients = SafeRetryClient.builder().apiKey("sk_test");
    try (db;
        FakeProvider api = FakeProvider.builder().dialect(Dialect.STRIPE).start();
        JdbcKeyStore store = stores.outboxSealKey("demo-1", seal).build();
        SafeRetryClient client = clients.baseUrl(api.baseUrl()).keyStore(store).build();
        Connection c = db.getConnection()) {
      c.createStatement().execute("CREATE TABLE orders (id INT PRIMARY KEY, amount BIGINT)");
      for (int n = 1; n <= 12; n++) {
        placeOrder(db, store, n, n % 4 == 0); // 9 orders committed, 3 rolled back
      }
      api.arm(Fault.loseAnswer()); // the first charge is made, its answer lost: resent, same key
      OutboxRelay relay = OutboxRelay.builder().store(store).client(client).build();
      while (!store.pending().isEmpty()) {
        relay.runOnce();
      }
      boolean ok = api.effects().size() == 9 && api.received().size() == 10;
      System.out.printf("VERDICT: %s, %d charges%n", ok ? "OK" : "FAILED", api.effects().size());
      System.exit(ok ? 0 : 1);
    }
  }

  public static boolean placeOrder(DataSource db, JdbcKeyStore store, int n, boolean fails)
      throws Exception {
    long amount = 1000L + n; // order n and its charge intent commit together, or neither
    try (Connection c = db.getConnection()) {
      c.setAutoCommit(false);
      c.createStatement().executeUpdate("INSERT INTO orders VALUES (" + n + ", " + amount + ")");
      byte[] body = ("amount=" + amount + "&currency=eur&description=order-" + n).getBytes(UTF_8);
      StoredRequest charge = // what a relay will send, with the key recorded in the intent
          new StoredRequest("POST", "v1/charges", KeyPlacement.header(), Map.of(), FORM, body);
      String id = "order-" + n;
      Instant now = Instant.now();
      IntentRecord intent =
          IntentRecord.pending(SCOPE, id, IdempotencyKey.random(), id + ":" + amount, now, DAY);
      JdbcOutbox.of(store).enqueue(c, intent, charge, now); // on the order's connection
      if (fails) {
        c.rollback(); // neither the order nor its charge exists
        return false;
      }
      c.commit();
      return true;
    }
  }
}
