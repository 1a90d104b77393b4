package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.Dialect;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Array;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connection a handler is given: the inbox's transaction, without the calls that would end or
 * split it. Commit, rollback (but to the handler's own savepoints), auto-commit, close, abort,
 * isolation, read-only, schema or catalog changes, and SQL text that does the same (see {@link
 * SqlLexer}) are refused with an {@link IllegalStateException} naming the call, and the first
 * refusal is remembered, so a handler that catches it and returns still fails its delivery. Every
 * statement, result set, metadata and array obtained through it is wrapped too, so {@code
 * getConnection()} and {@code getStatement()} lead back here, never to the driver's connection;
 * {@code unwrap} gives nothing beyond {@code java.sql}.
 *
 * <p>When the handler returns, {@link #end()} waits for calls still running on other threads, and
 * every later call is refused: a thread the handler started cannot write into the transaction after
 * the inbox decided its outcome, nor into whatever transaction the pooled connection serves next.
 *
 * <p>Thread-safe: calls from several threads run one at a time.
 */
final class HandlerConnection {
  /** The JDBC types whose instances can lead back to a connection, wrapped wherever they appear. */
  private static final List<Class<?>> WRAPPED =
      List.of(
          CallableStatement.class,
          PreparedStatement.class,
          Statement.class,
          ResultSet.class,
          DatabaseMetaData.class,
          Array.class);

  /** Connection methods that end, split or reconfigure the transaction, or outlive the handler. */
  private static final Set<String> REFUSED =
      Set.of(
          "commit",
          "rollback",
          "releaseSavepoint",
          "setAutoCommit",
          "close",
          "abort",
          "setTransactionIsolation",
          "setReadOnly",
          "setCatalog",
          "setSchema",
          "setNetworkTimeout",
          "beginRequest",
          "endRequest");

  /** Methods whose first argument is SQL text that runs (or will run) on the connection. */
  private static final Set<String> TAKES_SQL =
      Set.of(
          "prepareStatement",
          "prepareCall",
          "execute",
          "executeQuery",
          "executeUpdate",
          "executeLargeUpdate",
          "addBatch");

  private final Connection real;
  private final Dialect dialect;
  private final String message;
  private final Connection proxy;
  private final ReentrantLock lock = new ReentrantLock();
  private final Set<Savepoint> own = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean ended; // guarded by lock
  private IllegalStateException refusal; // guarded by lock

  /**
   * @param message names the message in refusals, e.g. {@code "message evt_1 of billing"}
   */
  HandlerConnection(Connection real, Dialect dialect, String message) {
    this.real = real;
    this.dialect = dialect;
    this.message = message;
    this.proxy =
        (Connection)
            Proxy.newProxyInstance(
                HandlerConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                new Wrapper(real));
  }

  /** The connection to give the handler. */
  Connection connection() {
    return proxy;
  }

  /**
   * Ends the handler's use of the connection, after any call still running on another thread, and
   * returns the first call that was refused (null when none was).
   */
  IllegalStateException end() {
    lock.lock();
    try {
      ended = true;
      return refusal;
    } finally {
      lock.unlock();
    }
  }

  /** Work of the inbox's own on the real connection, for the handler while it runs. */
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs the inbox's own work for the handler, one call at a time with the handler's. */
  <T> T call(String what, Work<T> work) throws SQLException {
    lock.lock();
    try {
      if (ended) {
        throw afterEnd(what);
      }
      return work.run(real);
    } finally {
      lock.unlock();
    }
  }

  private IllegalStateException afterEnd(String call) {
    return new IllegalStateException(
        "the inbox's transaction of "
            + message
            + " was used after its handler returned: "
            + call
            + " is refused");
  }

  private IllegalStateException refuse(String call) {
    IllegalStateException e =
        new IllegalStateException(
            call
                + " is refused on the inbox's connection: the receipt of "
                + message
                + " commits or rolls back with the handler's work, so only the inbox ends the"
                + " transaction; this delivery is rolled back and must not be acknowledged");
    if (refusal == null) {
      refusal = e;
    }
    return e;
  }

  private void screen(Method m, Object[] args) {
    if (args != null
        && args.length > 0
        && args[0] instanceof String sql
        && TAKES_SQL.contains(m.getName())) {
      String statement = SqlLexer.refused(sql, dialect);
      if (statement != null) {
        throw refuse("the SQL statement " + statement + " (" + m.getName() + ")");
      }
    }
  }

  /** Refuses a connection call that would end, split or reconfigure the transaction. */
  private void check(String name, Object[] args) {
    if (!REFUSED.contains(name)) {
      return;
    }
    Object arg = args == null || args.length == 0 ? null : args[0];
    if (arg instanceof Savepoint sp && own.contains(sp)) {
      if (name.equals("releaseSavepoint")) {
        own.remove(sp);
      }
      return; // the handler's own savepoint: it was set after the receipt
    }
    if (arg instanceof Savepoint) {
      throw refuse(name + "() of a savepoint the handler did not set");
    }
    throw refuse(name + "(" + (arg instanceof Boolean || arg instanceof Integer ? arg : "") + ")");
  }

  private Object wrap(Object value) {
    if (value == null
        || Proxy.isProxyClass(value.getClass())
            && Proxy.getInvocationHandler(value) instanceof Wrapper w
            && w.guard() == this) {
      return value; // wrapped already
    }
    List<Class<?>> types = new ArrayList<>();
    for (Class<?> type : WRAPPED) {
      if (type.isInstance(value)) {
        types.add(type);
      }
    }
    if (types.isEmpty()) {
      return value;
    }
    return Proxy.newProxyInstance(
        HandlerConnection.class.getClassLoader(),
        types.toArray(new Class<?>[0]),
        new Wrapper(value));
  }

  /** Passes calls on to the driver's object, refusing, screening and wrapping on the way. */
  private final class Wrapper implements InvocationHandler {
    private final Object target;

    Wrapper(Object target) {
      this.target = target;
    }

    HandlerConnection guard() {
      return HandlerConnection.this;
    }

    @Override
    public Object invoke(Object self, Method m, Object[] args) throws Throwable {
      String name = m.getName();
      if (m.getDeclaringClass() == Object.class) {
        return switch (name) {
          case "equals" -> self == args[0];
          case "hashCode" -> System.identityHashCode(self);
          default -> "the inbox's transaction of " + message;
        };
      }
      lock.lock();
      try {
        if (ended) {
          if (name.equals("close") || name.equals("free")) {
            return null; // harmless: the inbox has closed or returned the connection
          }
          if (name.equals("isClosed")) {
            return true;
          }
          throw afterEnd(name + "()");
        }
        switch (name) {
          case "getConnection":
            return proxy;
          case "unwrap":
            if (((Class<?>) args[0]).isInstance(self)) {
              return self;
            }
            throw new SQLException(
                "the inbox's transaction is handed out as java.sql types only: not a wrapper for "
                    + ((Class<?>) args[0]).getName());
          case "isWrapperFor":
            return ((Class<?>) args[0]).isInstance(self);
          default:
            break;
        }
        if (target == real) {
          if (name.equals("setAutoCommit")
              && Boolean.FALSE.equals(args[0])
              && !real.getAutoCommit()) {
            return null; // already off: nothing changes
          }
          check(name, args);
        }
        screen(m, args);
        Object result = pass(m, args);
        if (target == real && name.equals("setSavepoint")) {
          own.add((Savepoint) result);
        }
        return wrap(result);
      } finally {
        lock.unlock();
      }
    }

    private Object pass(Method m, Object[] args) throws Throwable {
      try {
        return m.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
