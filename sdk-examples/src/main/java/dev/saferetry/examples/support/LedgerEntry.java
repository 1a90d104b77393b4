package dev.saferetry.examples.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The queue consumer example's message and its table: a ledger entry such as {@code
 * {"account":"acct-1","amount":100}}, stored as a row of {@code ledger_entries} under the id of the
 * message that carried it.
 *
 * @param account the account, 1 to 64 characters
 * @param amount the amount
 */
public record LedgerEntry(String account, long amount) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@return the entry a message body carries}
   *
   * @param body the message body
   * @throws IllegalArgumentException if the body is not a ledger entry: it never will be
   */
  public static LedgerEntry parse(byte[] body) {
    JsonNode entry;
    try {
      entry = JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("the body is not JSON");
    }
    JsonNode amount = entry == null ? null : entry.path("amount");
    String account = entry == null ? "" : entry.path("account").asText("");
    if (account.isEmpty()
        || account.length() > 64
        || !amount.isIntegralNumber()
        || !amount.canConvertToLong()) {
      throw new IllegalArgumentException("not a ledger entry (account, amount)");
    }
    return new LedgerEntry(account, amount.asLong());
  }

  /**
   * Creates the {@code ledger_entries} table in the database at {@code jdbcUrl} if it is not there.
   */
  public static void createTable(String jdbcUrl) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS ledger_entries (message_id VARCHAR(255) NOT NULL,"
              + " account VARCHAR(64) NOT NULL, amount BIGINT NOT NULL)");
    }
  }

  /** Inserts this entry, carried by message {@code messageId}, in {@code tx}'s transaction. */
  public void insert(Connection tx, String messageId) throws SQLException {
    try (PreparedStatement s = tx.prepareStatement("INSERT INTO ledger_entries VALUES (?, ?, ?)")) {
      s.setString(1, messageId);
      s.setString(2, account);
      s.setLong(3, amount);
      s.executeUpdate();
    }
  }
}
