package dev.saferetry.soak;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;

/**
 * A worker's connection pool and {@link JdbcKeyStore} on the database every worker of the run
 * shares (the table is created by whichever worker starts first, under a database lock).
 *
 * @param pool the pool
 * @param store the store on it
 *     <p>Instances are thread-safe.
 */
record SharedStore(HikariDataSource pool, JdbcKeyStore store) implements AutoCloseable {

  static SharedStore open(String url, int threads) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(threads + 1);
    config.setMinimumIdle(1);
    config.setPoolName("chaos-worker");
    HikariDataSource pool = new HikariDataSource(config);
    return new SharedStore(
        pool, JdbcKeyStore.builder().dataSource(pool).createSchema(true).build());
  }

  @Override
  public void close() {
    store.close();
    pool.close();
  }
}
