package dev.saferetry.benchmarks;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that counts the database round trips made through it: every statement execution (a
 * batch counts once) and every explicit commit or rollback. Borrowing a connection from the pool
 * underneath is not counted (a pool hands out an open connection without talking to the server).
 *
 * <p>Thread-safe.
 */
final class CountingDataSource implements DataSource {
  private static final Set<String> EXECUTIONS =
      Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch");

  private final DataSource target;
  private final LongAdder roundTrips = new LongAdder();

  CountingDataSource(DataSource target) {
    this.target = target;
  }

  long roundTrips() {
    return roundTrips.sum();
  }

  @Override
  public Connection getConnection() throws SQLException {
    return wrap(Connection.class, target.getConnection());
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return wrap(Connection.class, target.getConnection(user, password));
  }

  private <T> T wrap(Class<T> type, T real) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          String name = method.getName();
          if (EXECUTIONS.contains(name) || name.equals("commit") || name.equals("rollback")) {
            roundTrips.increment();
          }
          Object result = invoke(method, real, args);
          if (result instanceof Statement s && type == Connection.class) {
            Class<? extends Statement> kind = statementType(method.getReturnType());
            return wrapStatement(kind, s);
          }
          return result;
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  @SuppressWarnings("unchecked")
  private static Class<? extends Statement> statementType(Class<?> declared) {
    return (Class<? extends Statement>) declared;
  }

  private <S extends Statement> S wrapStatement(Class<S> kind, Statement real) {
    return wrap(kind, kind.cast(real));
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return target.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return target.isWrapperFor(iface);
  }
}
