package dev.saferetry.jdbc.keystore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A password in a connection URL never reaches an exception: not its message, not a cause's, not
 * the driver's own "No suitable driver found for ..." text.
 */
class JdbcUrlCredentialsTest {
  private static final String MISTYPED =
      "jdbc:postgresq://127.0.0.1:5432/test?user=app&password=hunter2SECRET";

  @Test
  void aMistypedInboxUrlFailsWithoutItsPasswordAnywhereInTheChain() {
    Throwable failure = catchThrowable(() -> Inbox.builder().jdbcUrl(MISTYPED).build());

    assertThat(failure).isInstanceOf(InboxException.class);
    assertThat(everything(failure))
        .contains("No suitable driver found for jdbc:postgresq://127.0.0.1:5432/test")
        .doesNotContain("hunter2SECRET");
  }

  @Test
  void theInboxUrlsUserInfoPasswordIsMaskedToo() {
    String url = "jdbc:nosuchdb://app:Pa55word!@127.0.0.1/x";

    Throwable failure = catchThrowable(() -> Inbox.builder().jdbcUrl(url).build());

    assertThat(everything(failure)).doesNotContain("Pa55word!");
  }

  @Test
  void aKeyStoreDataSourceThatNamesItsUrlFailsWithoutThePassword() {
    AtomicBoolean broken = new AtomicBoolean(true);
    Throwable atBuild =
        catchThrowable(() -> JdbcKeyStore.builder().dataSource(source(broken)).build());

    assertThat(atBuild).isInstanceOf(KeyStoreException.class);
    assertThat(everything(atBuild)).contains("No suitable driver").doesNotContain("hunter2SECRET");
  }

  @Test
  void aKeyStoreWhoseDatabaseLaterFailsWithTheUrlInItsMessageKeepsThePasswordOut()
      throws SQLException {
    AtomicBoolean broken = new AtomicBoolean(false);
    JdbcKeyStore store =
        JdbcKeyStore.builder().dataSource(source(broken)).createSchema(true).build();
    broken.set(true);

    Throwable failure = catchThrowable(store::pending);

    assertThat(failure).isInstanceOf(KeyStoreException.class);
    assertThat(everything(failure)).contains("No suitable driver").doesNotContain("hunter2SECRET");
    store.close();
  }

  /**
   * A data source over {@link DriverManager}, as a tool's simple data source is: a private H2
   * database, or (once {@code broken}) the mistyped URL.
   */
  private static DataSource source(AtomicBoolean broken) {
    String h2 = "jdbc:h2:mem:credentials-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("getConnection")) {
                throw new UnsupportedOperationException(method.getName());
              }
              try {
                return DriverManager.getConnection(broken.get() ? MISTYPED : h2);
              } catch (SQLException e) {
                throw e;
              } catch (RuntimeException e) {
                throw new InvocationTargetException(e);
              }
            });
  }

  /** Messages and stack traces of the whole chain, as a logger would print it. */
  private static String everything(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
