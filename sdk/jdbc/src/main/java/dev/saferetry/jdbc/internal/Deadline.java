package dev.saferetry.jdbc.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The time by which a store's database waits must end: a call's remaining deadline, carried from
 * the call to the statements it causes, by {@link System#nanoTime()}.
 *
 * <p>How a wait is cut differs per database. PostgreSQL and MariaDB: every statement gets a JDBC
 * query timeout of the time left (pgjdbc cancels the statement on the server; MariaDB's driver runs
 * it under {@code max_statement_time}), so a row lock another transaction holds, or a slow server,
 * ends the statement with an error instead of a wait. No session setting is changed, so this is
 * safe on a connection the caller owns. H2's query timeout does not cut lock waits, so its session
 * {@code LOCK_TIMEOUT} is lowered to the time left for the work and restored afterwards. JDBC
 * counts in whole seconds: the bound is the time left rounded up to a second, and at least one, so
 * a statement that starts at the deadline (a completion after the last attempt) still gets a second
 * rather than failing without trying.
 *
 * <p>Immutable and thread-safe.
 */
public final class Deadline {
  /** No deadline: waits are bounded only by the database's own settings. */
  public static final Deadline NONE = new Deadline(0, false);

  private static final Set<String> CREATES_STATEMENTS =
      Set.of("createStatement", "prepareStatement", "prepareCall");

  private final long nanos;
  private final boolean bounded;

  private Deadline(long nanos, boolean bounded) {
    this.nanos = nanos;
    this.bounded = bounded;
  }

  /**
   * The deadline {@code maxWait} from now.
   *
   * @throws IllegalArgumentException if {@code maxWait} is negative
   */
  public static Deadline after(Duration maxWait) {
    Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must not be negative");
    }
    long now = System.nanoTime();
    long left;
    try {
      left = maxWait.toNanos();
    } catch (ArithmeticException tooLong) {
      return NONE; // centuries: no bound worth setting
    }
    long at = now + left;
    return at - now < 0 ? NONE : new Deadline(at, true);
  }

  /** The earlier of two deadlines. */
  public static Deadline earlier(Deadline a, Deadline b) {
    if (!a.bounded) {
      return b;
    }
    if (!b.bounded) {
      return a;
    }
    return a.nanos - b.nanos <= 0 ? a : b;
  }

  /** Whether there is a deadline. */
  public boolean bounded() {
    return bounded;
  }

  /** Nanoseconds left, zero or more; {@link Long#MAX_VALUE} without a deadline. */
  public long nanosLeft() {
    return bounded ? Math.max(0, nanos - System.nanoTime()) : Long.MAX_VALUE;
  }

  /** Whether the deadline has passed. */
  public boolean passed() {
    return bounded && nanos - System.nanoTime() <= 0;
  }

  /** The bound a statement starting now gets, in whole seconds: the time left rounded up, >= 1. */
  int seconds() {
    long left = nanosLeft();
    long seconds = left / 1_000_000_000L + (left % 1_000_000_000L == 0 ? 0 : 1);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds));
  }

  /** Work on a connection whose waits are bounded by a deadline. */
  @FunctionalInterface
  public interface Bounded<T> {
    /** Does the work. */
    T run(Connection c) throws SQLException;
  }

  /** Runs {@code work} on {@code c} with every wait bounded by this deadline; see the class. */
  public <T> T run(Connection c, Dialect dialect, Bounded<T> work) throws SQLException {
    if (!bounded) {
      return work.run(c);
    }
    if (dialect != Dialect.H2) {
      return work.run(timed(c));
    }
    long before = h2LockTimeout(c);
    long millis = seconds() * 1000L;
    if (millis >= before) {
      return work.run(c); // the session already waits less
    }
    setH2LockTimeout(c, millis);
    T result;
    try {
      result = work.run(c);
    } catch (SQLException | RuntimeException | Error e) {
      try {
        setH2LockTimeout(c, before);
      } catch (SQLException restore) {
        e.addSuppressed(restore);
      }
      throw e;
    }
    setH2LockTimeout(c, before);
    return result;
  }

  /** {@code c}, with a query timeout of the time left set on every statement it creates. */
  private Connection timed(Connection c) {
    return (Connection)
        Proxy.newProxyInstance(
            Deadline.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (self, m, args) -> {
              if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                  case "equals" -> self == args[0];
                  case "hashCode" -> System.identityHashCode(self);
                  default -> "connection bounded by a deadline";
                };
              }
              Object result;
              try {
                result = m.invoke(c, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (result instanceof Statement s && CREATES_STATEMENTS.contains(m.getName())) {
                s.setQueryTimeout(seconds());
              }
              return result;
            });
  }

  private static long h2LockTimeout(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT LOCK_TIMEOUT()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void setH2LockTimeout(Connection c, long millis) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET LOCK_TIMEOUT " + millis);
    }
  }
}
