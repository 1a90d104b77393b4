package dev.saferetry.jdbc.outbox;

import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.outbox.AdminTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's rows as its users see them: a row as an {@link OutboxIntent}, the states a listing
 * filters on, the ordering key's rule, and the rows a listing could not read, logged.
 *
 * <p>Stateless and thread-safe.
 */
final class OutboxRows {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.jdbc");

  /** The longest ordering key, in characters. */
  static final int MAX_ORDERING_KEY = 255;

  static final int QUEUED = 0;
  static final int ENDED = 1;
  static final int HELD = 2;
  static final int ABANDONED = 3;

  private OutboxRows() {}

  /** The public view of a row. */
  static OutboxIntent intent(AdminTable.Row row) {
    return new OutboxIntent(
        row.record(),
        row.request(),
        row.hold() == null ? null : HoldReason.valueOf(row.hold().name()),
        row.note(),
        row.attempts(),
        row.orderingKey(),
        row.holdsKey() && row.hold() != null,
        row.leaseOwner(),
        row.leaseExpiresAt(),
        row.dueAt(),
        row.version(),
        row.abandoned());
  }

  /** The ordering key, checked: 1..255 characters, not blank, stored exactly. */
  static String checkOrderingKey(String orderingKey) {
    ColumnText.checkId("orderingKey", orderingKey, MAX_ORDERING_KEY);
    if (orderingKey.isBlank()) {
      throw new IllegalArgumentException("orderingKey must not be blank");
    }
    return orderingKey;
  }

  /** Logs each row of a listing that cannot be read back (the listing leaves it out). */
  static void logUnreadable(AdminTable.Listing listing) {
    for (AdminTable.Unreadable u : listing.unreadable()) {
      LOG.warn("{} (OutboxAdmin.listUnreadable names such rows)", AdminTable.describe(u));
    }
  }
}
