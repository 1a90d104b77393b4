package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.jdbc.outbox.SafeRetryMeters;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JDBC key store, outbox and inbox on the application's single {@code DataSource}, joining its
 * Spring-managed transactions, and the relays as a lifecycle bean. SafeRetry's tables are brought
 * up as {@code saferetry.jdbc.schema-init} says and then checked: start-up fails naming the table
 * when one is missing or outdated.
 */
@AutoConfiguration(
    after = DataSourceAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
      "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
      "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
      "org.springframework.boot.liquibase.autoconfigure.LiquibaseAutoConfiguration"
    })
@ConditionalOnClass({JdbcKeyStore.class, DataSourceUtils.class})
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnProperty(prefix = "saferetry", name = "enabled", matchIfMissing = true)
// spring-boot-jdbc is optional, not re-exported: only Spring reads the ordering annotation.
@SuppressWarnings("exports")
public class SafeRetryJdbcAutoConfiguration {
  /** Creates the configuration; Spring calls it. */
  public SafeRetryJdbcAutoConfiguration() {}

  /** The DataSource the transaction manager manages (a transaction-aware proxy's target). */
  static DataSource target(DataSource ds) {
    return ds instanceof TransactionAwareDataSourceProxy p ? p.getTargetDataSource() : ds;
  }

  @Bean
  @DependsOnDatabaseInitialization
  SchemaInitializer saferetrySchema(SafeRetryProperties properties, DataSource dataSource) {
    SchemaInitializer s = new SchemaInitializer(properties.getJdbc(), target(dataSource));
    s.run();
    return s;
  }

  /**
   * The key store on the application's DataSource (its own transactions, never the caller's: an
   * intent is recorded before the call whatever the caller's transaction does).
   *
   * @param properties the properties
   * @param dataSource the DataSource
   * @param schema the schema initializer, run first
   * @return the key store
   */
  @Bean(destroyMethod = "close")
  @DependsOnDatabaseInitialization
  JdbcKeyStore saferetryKeyStore(
      SafeRetryProperties properties, DataSource dataSource, SchemaInitializer schema) {
    SafeRetryProperties.Jdbc p = properties.getJdbc();
    var b = JdbcKeyStore.builder().dataSource(target(dataSource)).table(p.getTable());
    if (p.getSchema() != null && !p.getSchema().isBlank()) {
      b.schema(p.getSchema());
    }
    if (p.getOutboxMaxAge() != null) {
      b.outboxMaxAge(p.getOutboxMaxAge());
    }
    if (p.getOutboxSealKey().isConfigured()) {
      b.outboxSealKey(p.getOutboxSealKey().getId(), secret(p.getOutboxSealKey()));
    }
    for (SafeRetryProperties.SealKey retired : p.getOutboxRetiredSealKeys()) {
      b.outboxRetiredSealKey(retired.getId(), secret(retired));
    }
    return b.createSchema(schema.storesCreate()).build();
  }

  private static byte[] secret(SafeRetryProperties.SealKey key) {
    return key.getSecret() == null
        ? new byte[0]
        : key.getSecret().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Bean
  @DependsOnDatabaseInitialization
  Inbox saferetryInboxStore(
      SafeRetryProperties properties, DataSource dataSource, SchemaInitializer schema) {
    return Inbox.builder()
        .dataSource(target(dataSource))
        .table(properties.getJdbc().getInboxTable())
        .createSchema(schema.storesCreate())
        .build();
  }

  @Bean
  SafeRetryOutbox saferetryOutbox(
      JdbcKeyStore store, DataSource dataSource, SafeRetryProperties properties) {
    return new SafeRetryOutbox(
        store,
        target(dataSource),
        Clock.systemUTC(),
        properties.getJdbc().getOutboxSealKey().isConfigured());
  }

  @Bean
  SafeRetryInbox saferetryInbox(Inbox inbox, DataSource dataSource) {
    return new SafeRetryInbox(inbox, target(dataSource));
  }

  @Bean
  @ConditionalOnSingleCandidate(PlatformTransactionManager.class)
  SafeRetryWebhooks saferetryWebhooks(
      SafeRetryProperties properties, SafeRetryInbox inbox, PlatformTransactionManager tm) {
    return new SafeRetryWebhooks(
        Webhooks.verifiers(properties.getWebhooks()), inbox, new TransactionTemplate(tm));
  }

  @Bean
  @ConditionalOnProperty(prefix = "saferetry.outbox.relay", name = "enabled", matchIfMissing = true)
  RelayLifecycle saferetryRelays(
      JdbcKeyStore store,
      SafeRetryProperties properties,
      SafeRetryClientFactory factory,
      BeanFactory beans) {
    List<SafeRetryClient> clients =
        properties.getClients().keySet().stream()
            .filter(factory::usesDataSource)
            .map(name -> beans.getBean(name, SafeRetryClient.class))
            .toList();
    if (!properties.getJdbc().getOutboxSealKey().isConfigured()) {
      LoggerFactory.getLogger("dev.saferetry.spring")
          .info(
              "no outbox relay runs: saferetry.jdbc.outbox-seal-key is not set, so nothing can"
                  + " be enqueued either");
      return RelayLifecycle.build(store, List.of(), properties.getOutbox().getRelay());
    }
    return RelayLifecycle.build(store, clients, properties.getOutbox().getRelay());
  }

  /** The outbox's gauges and the relays' counters, bound by Boot to the application's registry. */
  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
  static class Meters {
    @Bean
    SafeRetryMeters saferetryOutboxMeters(
        JdbcKeyStore store, ObjectProvider<RelayLifecycle> relays) {
      RelayLifecycle r = relays.getIfAvailable();
      return SafeRetryMeters.of(
          store, r == null ? new OutboxRelay[0] : r.relays().toArray(OutboxRelay[]::new));
    }
  }
}
