package dev.saferetry.examples;

import dev.saferetry.examples.support.OutboxDrill;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The transactional outbox: an order and its charge intent are committed in one database
 * transaction, or neither is (some roll back). A {@link ChargeRelay} process sends the charges; the
 * drill kills it (SIGKILL) in the middle of a charge, and a second relay finishes. Prints a verdict
 * — one charge per committed order, none for a rolled-back one — and exits with 1 otherwise.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.Outbox
 * #   [-Dexec.args=jdbc:postgresql://127.0.0.1:5432/test?user=postgres]   (a fresh schema in it)
 * #   without one: an embedded H2 file the relays open too; the payment API is in-process
 * </pre>
 */
public final class Outbox {
  /** The operation the charge intents belong to. */
  public static final IntentScope SCOPE =
      new IntentScope(IntentScope.DEFAULT_TENANT, "create-charge");

  private static final String FORM = "application/x-www-form-urlencoded";
  private static final Duration DAY = Duration.ofHours(24); // how long an intent is kept

  private Outbox() {}

  /** {@code [jdbc-url]}: runs the drill on H2, or in a fresh schema of that database. */
  public static void main(String[] args) throws Exception {
    OutboxDrill.Result r = OutboxDrill.run(args.length > 0 ? args[0] : null, System.out);
    System.out.println(r.verdict());
    System.exit(r.ok() ? 0 : 1);
  }

  /**
   * Places order {@code n} and its charge intent in one transaction; {@code fails} makes it fail
   * after both were written (a stock check, say). Returns whether the order was committed.
   */
  public static boolean placeOrder(DataSource db, JdbcKeyStore store, int n, boolean fails)
      throws SQLException {
    long amount = 1000L + n;
    try (Connection c = db.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
        insert.setInt(1, n);
        insert.setLong(2, amount);
        insert.executeUpdate();
      }
      String form = "amount=" + amount + "&currency=eur&description=order-" + n;
      byte[] body = (form + "&metadata%5Border_id%5D=" + n).getBytes(StandardCharsets.UTF_8);
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
