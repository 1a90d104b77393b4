package dev.saferetry.spring;

import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The transactional outbox on the application's {@code DataSource}, joining the Spring-managed
 * transaction: an intent enqueued inside a {@code @Transactional} method commits with the method's
 * own rows and vanishes if it rolls back; the relays send it afterwards, with its key.
 *
 * <pre>{@code
 * @Transactional
 * public Order place(Cart cart) {
 *   Order order = orders.save(Order.from(cart));
 *   outbox.enqueue(stripe, CREATE_CHARGE, order.charge(),
 * RequestOptions.none().withIntentId("order-" + order.id()));
 *   return order;
 * }
 * }</pre>
 *
 * <p>This class is thread-safe.
 */
public final class SafeRetryOutbox {
  private final JdbcKeyStore store;
  private final boolean sealed;
  private final JdbcOutbox outbox;
  private final DataSource dataSource;
  private final Clock clock;

  SafeRetryOutbox(JdbcKeyStore store, DataSource dataSource, Clock clock, boolean sealed) {
    this.store = store;
    this.sealed = sealed;
    this.outbox = JdbcOutbox.of(store);
    this.dataSource = dataSource;
    this.clock = clock;
  }

  /**
   * Records a call of {@code client} for the relays, due at once, in the current transaction.
   *
   * @param client the client that will send it (its key store must be the DataSource's)
   * @param op the operation
   * @param body the request body
   * @param options the request's options; its intent id makes the enqueue idempotent
   * @param <Q> the body's type
   * @return the intent as recorded, or the one recorded earlier under the same intent id
   * @throws IllegalStateException if no Spring-managed transaction is active, or no seal key is
   *     configured
   * @throws IllegalArgumentException if the client's key store is not the DataSource's; and as
   *     {@link JdbcOutbox#enqueue(Connection, SafeRetryClient, Operation, Object, RequestOptions,
   *     java.time.Instant)}
   */
  public <Q> BeginResult enqueue(
      SafeRetryClient client, Operation<Q, ?> op, Q body, RequestOptions options) {
    return enqueue(client, op, body, options, Duration.ZERO);
  }

  /**
   * Records a call as {@link #enqueue(SafeRetryClient, Operation, Object, RequestOptions)} does,
   * first due {@code delay} after now (time for the code that committed it to send it itself).
   *
   * @param client the client
   * @param op the operation
   * @param body the body
   * @param options the options
   * @param delay how long after now a relay may first send it; not negative
   * @param <Q> the body's type
   * @return the intent as recorded, or the earlier one
   * @throws IllegalStateException if no Spring-managed transaction is active
   */
  public <Q> BeginResult enqueue(
      SafeRetryClient client, Operation<Q, ?> op, Q body, RequestOptions options, Duration delay) {
    check(delay);
    checkClient(client);
    Connection c = SpringTransactions.current(dataSource, "SafeRetryOutbox.enqueue");
    try {
      return outbox.enqueue(c, client, op, body, options, clock.instant().plus(delay));
    } finally {
      SpringTransactions.release(c, dataSource);
    }
  }

  /**
   * Records a call with an ordering key (an order or account id): the intents of one key are sent
   * one at a time in commit order; see {@link JdbcOutbox#enqueue(Connection, String,
   * SafeRetryClient, Operation, Object, RequestOptions, java.time.Instant)}.
   *
   * @param orderingKey the ordering key
   * @param client the client
   * @param op the operation
   * @param body the body
   * @param options the options
   * @param <Q> the body's type
   * @return the intent as recorded, or the earlier one
   * @throws IllegalStateException if no Spring-managed transaction is active
   */
  public <Q> BeginResult enqueueOrdered(
      String orderingKey,
      SafeRetryClient client,
      Operation<Q, ?> op,
      Q body,
      RequestOptions options) {
    Connection c = SpringTransactions.current(dataSource, "SafeRetryOutbox.enqueueOrdered");
    try {
      return outbox.enqueue(c, orderingKey, client, op, body, options, clock.instant());
    } finally {
      SpringTransactions.release(c, dataSource);
    }
  }

  /** {@return the underlying outbox, for its held intents and maintenance} */
  public JdbcOutbox outbox() {
    return outbox;
  }

  /** The relays send only with clients whose intents are in this store, and only sealed rows. */
  private void checkClient(SafeRetryClient client) {
    if (!sealed) {
      throw new IllegalStateException(
          "no outbox seal key: set saferetry.jdbc.outbox-seal-key.id and .secret (at least 32"
              + " bytes, kept out of the database) to enqueue");
    }
    if (Objects.requireNonNull(client, "client").keyStore() != store) {
      throw new IllegalArgumentException(
          client
              + " keeps its keys in another store: enqueue with a client whose key store is the"
              + " DataSource's (saferetry.clients.<name>.key-store.type: datasource), which the"
              + " relays send with");
    }
  }

  private static void check(Duration delay) {
    if (Objects.requireNonNull(delay, "delay").isNegative()) {
      throw new IllegalArgumentException("delay is negative: " + delay);
    }
  }

  @Override
  public String toString() {
    return "SafeRetryOutbox[" + outbox + "]";
  }
}
