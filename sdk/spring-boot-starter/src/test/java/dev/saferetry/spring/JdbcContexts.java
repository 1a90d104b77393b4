package dev.saferetry.spring;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;

/** Small real contexts without a web server: a DataSource, transactions and the starter. */
final class JdbcContexts {
  private JdbcContexts() {}

  /** A context on a fresh embedded database of its own, with an outbox seal key. */
  static ApplicationContextRunner onFreshH2() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                SafeRetryJdbcAutoConfiguration.class,
                SafeRetryAutoConfiguration.class))
        .withPropertyValues(
            "spring.datasource.url=jdbc:h2:mem:fresh-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1",
            "saferetry.jdbc.outbox-seal-key.id=k1",
            "saferetry.jdbc.outbox-seal-key.secret=" + StarterContextTest.SEAL_SECRET);
  }
}
