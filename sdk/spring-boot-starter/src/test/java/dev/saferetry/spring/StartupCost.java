package dev.saferetry.spring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Measures what the starter adds to an application's start-up on an embedded database (not a test:
 * run with {@code java -cp <test class path> dev.saferetry.spring.StartupCost [rounds]}). Each
 * round starts and closes, in alternating order, the same application without SafeRetry and with it
 * (one client on the DataSource's key store, the tables created at start-up, a relay started), each
 * on a fresh in-memory H2 database, and prints the medians.
 */
public final class StartupCost {
  private StartupCost() {}

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    DataSourceAutoConfiguration.class,
    DataSourceTransactionManagerAutoConfiguration.class,
    TransactionAutoConfiguration.class
  })
  static class Without {}

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    DataSourceAutoConfiguration.class,
    DataSourceTransactionManagerAutoConfiguration.class,
    TransactionAutoConfiguration.class,
    SafeRetryJdbcAutoConfiguration.class,
    SafeRetryAutoConfiguration.class
  })
  static class With {}

  private static long start(Class<?> config, int n) {
    SpringApplication app = new SpringApplication(config);
    app.setWebApplicationType(WebApplicationType.NONE);
    app.setLogStartupInfo(false);
    long t0 = System.nanoTime();
    try (ConfigurableApplicationContext ctx =
        app.run(
            "--spring.main.banner-mode=off",
            "--logging.level.root=warn",
            "--spring.datasource.url=jdbc:h2:mem:startup-" + n + "-" + config.getSimpleName(),
            "--saferetry.jdbc.schema-init=create",
            "--saferetry.jdbc.outbox-seal-key.id=k1",
            "--saferetry.jdbc.outbox-seal-key.secret=" + StarterContextTest.SEAL_SECRET,
            "--saferetry.clients.payments.base-url=http://127.0.0.1:9/")) {
      long elapsed = System.nanoTime() - t0;
      if (!ctx.isActive()) {
        throw new IllegalStateException("the context did not start");
      }
      return elapsed;
    }
  }

  /**
   * Runs the rounds.
   *
   * @param args the number of rounds (default 15)
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    for (int i = 0; i < 3; i++) { // warm-up, not counted
      start(Without.class, -i - 1);
      start(With.class, -i - 1);
    }
    List<Long> without = new ArrayList<>();
    List<Long> with = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      if (i % 2 == 0) {
        without.add(start(Without.class, i));
        with.add(start(With.class, i));
      } else {
        with.add(start(With.class, i));
        without.add(start(Without.class, i));
      }
    }
    long a = median(without);
    long b = median(with);
    System.out.printf(
        "rounds %d: without SafeRetry %.1f ms, with %.1f ms, added %.1f ms (medians)%n",
        rounds, a / 1e6, b / 1e6, (b - a) / 1e6);
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
