package dev.saferetry.jdbc.outbox;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that counts what the code above it reads from the database: every row a result set
 * moves to, and the characters and bytes of every text or binary value read. It measures the reads
 * from outside the code under test, whatever queries it makes.
 */
final class CountingDataSource implements DataSource {
  private final DataSource inner;
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  CountingDataSource(DataSource inner) {
    this.inner = inner;
  }

  /** Rows read since the last reset. */
  long rows() {
    return rows.get();
  }

  /** Characters of text and bytes of binary values read since the last reset. */
  long bytes() {
    return bytes.get();
  }

  void reset() {
    rows.set(0);
    bytes.set(0);
  }

  @Override
  public Connection getConnection() throws SQLException {
    return wrap(Connection.class, inner.getConnection());
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return wrap(Connection.class, inner.getConnection(user, password));
  }

  @SuppressWarnings("unchecked")
  private <T> T wrap(Class<T> type, T target) {
    InvocationHandler h =
        (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (type == ResultSet.class) {
            count(method.getName(), result);
            return result;
          }
          if (result instanceof ResultSet rs) {
            return wrap(ResultSet.class, rs);
          }
          if (result instanceof Statement && method.getReturnType().isInterface()) {
            return wrap((Class<Object>) method.getReturnType(), result);
          }
          return result;
        };
    return (T) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, h);
  }

  private void count(String method, Object result) {
    if (method.equals("next") && Boolean.TRUE.equals(result)) {
      rows.incrementAndGet();
    } else if (result instanceof String s) {
      bytes.addAndGet(s.length());
    } else if (result instanceof byte[] b) {
      bytes.addAndGet(b.length);
    }
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return inner.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    inner.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    inner.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return inner.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return inner.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return inner.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return inner.isWrapperFor(iface);
  }
}
