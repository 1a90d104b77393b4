package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.jdbc.internal.SqlNames;
import java.util.List;

/**
 * The key store's SQL on one table, built once from checked names. Every value is a statement
 * parameter; only the table name (checked by {@link SqlNames}) is spliced into the text.
 *
 * <p>Immutable and thread-safe.
 */
public final class IntentSql {
  /** An intent record, in the order {@link IntentRows#read} reads it. */
  public static final String RECORD =
      "tenant, operation, intent_id, idempotency_key, fingerprint, state, created_at_ns,"
          + " expires_at_ns, status, resource_id";

  /**
   * The stored request and relay bookkeeping, after {@link #RECORD} in relay queries: columns 11 to
   * 22 (the key's placement and the request's fingerprint last, see {@link
   * IntentRows#readRequest}).
   */
  public static final String RELAY =
      "request_method, request_target, request_headers, request_type, request_body, relay_state,"
          + " hold_reason, relay_note, attempts, lease_token, request_key_placement,"
          + " request_fingerprint";

  /** What a begin writes, in the order {@link IntentRows#bindInsert} binds it. */
  private static final String INSERTED =
      RECORD
          + ", begin_nonce, request_method, request_target, request_headers, request_type,"
          + " request_body, request_key_placement, request_fingerprint, relay_state,"
          + " next_attempt_ns";

  /** How many values a begin writes. */
  private static final int INSERTED_COUNT = IntentRows.INSERTED.size();

  private static final String PK = " WHERE tenant = ? AND operation = ? AND intent_id = ?";

  /**
   * Rows a key store operation may replace, delete or purge: an intent its caller sends itself (not
   * in the outbox), or an outbox intent that ended. A queued or held outbox intent is the outbox's,
   * and one an operator abandoned stays until an operator releases it.
   */
  static final String OWN_OR_ENDED = "(relay_state IS NULL OR relay_state = 1)";

  /** What replacing an expired, completed record overwrites, bound like {@link #INSERTED}. */
  private static final List<String> REPLACED =
      List.of(
          "idempotency_key",
          "fingerprint",
          "state",
          "created_at_ns",
          "expires_at_ns",
          "status",
          "resource_id",
          "begin_nonce",
          "request_method",
          "request_target",
          "request_headers",
          "request_type",
          "request_body",
          "request_key_placement",
          "request_fingerprint",
          "relay_state",
          "next_attempt_ns");

  /** What replacing a record resets; the new lease token fences the old record's relay owner. */
  private static final String RESET =
      ", hold_reason = NULL, relay_note = NULL, attempts = 0, lease_owner = NULL,"
          + " lease_expires_ns = NULL, ordering_key = NULL, ordering_seq = NULL, holds_key = NULL,"
          + " lease_token = ";

  final String table;
  final String insert;
  final String upsertIfReplaceable;
  final String insertOrReturn;
  final String replaceIfExpired;
  final String find;

  /** The record and its relay_state (null: not an outbox intent), for a begin that found it. */
  final String findForBegin;

  /** What the outbox holds of an intent: relay state, hold reason, ordering key, lease, note. */
  final String outboxState;

  /** The latest abandonment of an intent in the audit: actor, reason, time; newest first. */
  final String lastAbandon;

  final String findRelay;
  final String pending;
  final String complete;
  final String completeAsync;
  final String abandon;
  final String expiredBatch;
  final String deleteExpired;
  final String purgePostgres;
  final List<String> probes;

  /** PostgreSQL: takes the next number of an ordering key, locking its row; returns next_seq. */
  final String orderNextPostgres;

  /** MariaDB: takes the next number of an ordering key, locking its row (read with orderRead). */
  final String orderNextMariaDb;

  /** H2: takes the next number of an existing ordering key, locking its row. */
  final String orderBump;

  /** H2: creates an ordering key's row; a duplicate means another transaction created it. */
  final String orderCreate;

  /** The ordering key's next number, read with the lock the statements above took. */
  final String orderRead;

  /** Records a new intent's ordering key and number. */
  final String setOrder;

  /**
   * The next ordering keys after a given one (tenant, key), in key order, locked, skipping keys
   * another transaction holds (an enqueue taking a number); parameters: the tenant twice, the key,
   * the limit.
   */
  final String orderKeysAfter;

  /** The first ordering keys, as {@link #orderKeysAfter}; parameter: the limit. */
  final String orderKeysFirst;

  /**
   * Deletes an ordering key's row when no intent of its tenant and key is left in the table;
   * parameters: tenant, key, tenant, key.
   */
  final String orderDeleteUnused;

  IntentSql(String table) {
    this.table = table;
    insert =
        "INSERT INTO "
            + table
            + " ("
            + INSERTED
            + ") VALUES (?"
            + ", ?".repeat(INSERTED_COUNT - 1)
            + ")";
    upsertIfReplaceable = postgresUpsert(table);
    insertOrReturn =
        insert
            + " ON DUPLICATE KEY UPDATE tenant = tenant RETURNING "
            + RECORD
            + ", begin_nonce, relay_state";
    replaceIfExpired =
        "UPDATE "
            + table
            + " SET "
            + assignments("?")
            + RESET
            + "lease_token + 1"
            + PK
            + " AND idempotency_key = ? AND state <> 0 AND expires_at_ns <= ? AND "
            + OWN_OR_ENDED;
    find = "SELECT " + RECORD + " FROM " + table + PK;
    findForBegin = "SELECT " + RECORD + ", relay_state FROM " + table + PK;
    outboxState =
        "SELECT relay_state, hold_reason, ordering_key, lease_owner, lease_expires_ns,"
            + " relay_note FROM "
            + table
            + PK;
    lastAbandon =
        "SELECT actor, reason, at_ns FROM "
            + table
            + "_audit WHERE tenant = ? AND operation = ? AND intent_id = ? AND action = 'ABANDON'"
            + " ORDER BY audit_id DESC";
    findRelay = "SELECT " + RECORD + ", " + RELAY + " FROM " + table + PK;
    pending =
        "SELECT "
            + RECORD
            + " FROM "
            + table
            + " WHERE state = 0 ORDER BY created_at_ns, tenant, operation, intent_id";
    complete =
        "UPDATE "
            + table
            + " SET state = ?, status = ?, resource_id = ?,"
            + " relay_state = CASE WHEN relay_state IS NULL THEN NULL WHEN relay_state = 3 THEN 3"
            + " ELSE 1 END,"
            + " lease_owner = NULL, lease_expires_ns = NULL, lease_token = lease_token + 1"
            + PK
            + " AND idempotency_key = ?";
    // A completion need not be durable when it returns (a lost one only causes a replay with the
    // same key), so PostgreSQL does not wait for its WAL flush. Sent as one round trip: the driver
    // runs both statements in one implicit transaction, to which the setting is local.
    completeAsync = "SELECT set_config('synchronous_commit', 'off', true); " + complete;
    abandon = "DELETE FROM " + table + PK + " AND " + OWN_OR_ENDED;
    // Oldest first along the expiry index; held intents (relay_state 2) and abandoned ones (3) are
    // kept, and queued ones are pending (state 0).
    expiredBatch =
        "SELECT tenant, operation, intent_id FROM "
            + table
            + " WHERE state <> 0 AND expires_at_ns <= ? AND "
            + OWN_OR_ENDED
            + " ORDER BY expires_at_ns LIMIT ? FOR UPDATE SKIP LOCKED";
    deleteExpired = abandon + " AND state <> 0 AND expires_at_ns <= ?";
    // By the locked rows' ctids (a TID scan; a row this transaction locked cannot move), not by
    // key: PostgreSQL would plan IN (subquery) as a hash join over the whole table.
    purgePostgres =
        "DELETE FROM "
            + table
            + " WHERE ctid = ANY(ARRAY("
            + expiredBatch.replace("tenant, operation, intent_id", "ctid")
            + ")) AND state <> 0 AND expires_at_ns <= ? AND "
            + OWN_OR_ENDED;
    String order = table + "_order";
    orderNextPostgres =
        "INSERT INTO "
            + order
            + " AS o (tenant, ordering_key, next_seq) VALUES (?, ?, 2)"
            + " ON CONFLICT (tenant, ordering_key) DO UPDATE SET next_seq = o.next_seq + 1"
            + " RETURNING next_seq";
    orderNextMariaDb =
        "INSERT INTO "
            + order
            + " (tenant, ordering_key, next_seq) VALUES (?, ?, 2)"
            + " ON DUPLICATE KEY UPDATE next_seq = next_seq + 1";
    orderBump =
        "UPDATE " + order + " SET next_seq = next_seq + 1 WHERE tenant = ? AND ordering_key = ?";
    orderCreate = "INSERT INTO " + order + " (tenant, ordering_key, next_seq) VALUES (?, ?, 2)";
    orderRead =
        "SELECT next_seq FROM " + order + " WHERE tenant = ? AND ordering_key = ? FOR UPDATE";
    setOrder =
        "UPDATE "
            + table
            + " SET ordering_key = ?, ordering_seq = ?, holds_key = NULL"
            + PK
            + " AND idempotency_key = ?";
    String keys = "SELECT tenant, ordering_key FROM " + order;
    String inKeyOrder = " ORDER BY tenant, ordering_key LIMIT ? FOR UPDATE SKIP LOCKED";
    orderKeysFirst = keys + inKeyOrder;
    orderKeysAfter = keys + " WHERE tenant > ? OR (tenant = ? AND ordering_key > ?)" + inKeyOrder;
    orderDeleteUnused =
        "DELETE FROM "
            + order
            + " WHERE tenant = ? AND ordering_key = ? AND NOT EXISTS (SELECT 1 FROM "
            + table
            + " WHERE tenant = ? AND ordering_key = ?)";
    probes =
        List.of(
            "SELECT "
                + RECORD
                + ", "
                + RELAY
                + ", begin_nonce, next_attempt_ns, lease_owner, lease_expires_ns,"
                + " ordering_key, ordering_seq, holds_key FROM "
                + table
                + " WHERE 1 = 0",
            "SELECT tenant, ordering_key, next_seq FROM " + table + "_order WHERE 1 = 0",
            "SELECT audit_id, action_id, at_ns, actor, action, tenant, operation, intent_id,"
                + " reason, state_before, state_after, new_key, old_key FROM "
                + table
                + "_audit WHERE 1 = 0");
  }

  /** PostgreSQL's begin of one row: inserts or replaces an expired, completed record. */
  static String postgresUpsert(String table) {
    return "INSERT INTO "
        + table
        + " AS t ("
        + INSERTED
        + ") VALUES (?"
        + ", ?".repeat(INSERTED_COUNT - 1)
        + ")"
        + postgresOnConflict();
  }

  /**
   * PostgreSQL's begin of any number of rows, as {@link #postgresUpsert} does for one: one array
   * parameter per column (of the types {@code arrays} names, in {@link #INSERTED} order), all of
   * the same length, inserted in the arrays' order. One text for every batch size, so the server
   * parses and plans it once per connection.
   */
  static String postgresUpsertArrays(String table, List<String> arrays) {
    return "INSERT INTO "
        + table
        + " AS t ("
        + INSERTED
        + ") SELECT "
        + INSERTED
        + " FROM unnest("
        + arrayParameters(arrays)
        + ") WITH ORDINALITY AS v ("
        + INSERTED
        + ", row_order) ORDER BY v.row_order"
        + postgresOnConflict();
  }

  /** {@code CAST(? AS type[])} for each type, comma-separated. */
  public static String arrayParameters(List<String> types) {
    StringBuilder out = new StringBuilder();
    for (String type : types) {
      out.append(out.length() == 0 ? "" : ", ").append("CAST(? AS ").append(type).append("[])");
    }
    return out.toString();
  }

  private static String postgresOnConflict() {
    return " ON CONFLICT (tenant, operation, intent_id) DO UPDATE SET "
        + assignments("EXCLUDED.")
        + RESET
        + "t.lease_token + 1 WHERE t.state <> 0 AND t.expires_at_ns <= EXCLUDED.created_at_ns"
        + " AND (t.relay_state IS NULL OR t.relay_state = 1)";
  }

  /** {@code column = ?} (or {@code column = EXCLUDED.column}) for every replaced column. */
  private static String assignments(String source) {
    StringBuilder out = new StringBuilder();
    for (String column : REPLACED) {
      out.append(out.length() == 0 ? "" : ", ").append(column).append(" = ");
      out.append(source.equals("?") ? "?" : source + column);
    }
    return out.toString();
  }
}
