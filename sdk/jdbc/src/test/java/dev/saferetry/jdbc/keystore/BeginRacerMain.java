package dev.saferetry.jdbc.keystore;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.idempotency.BeginResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Child process: opens the store in a schema, says READY, waits for "go", then begins intents
 * {@code order-0 .. order-(n-1)} from 4 threads in a shuffled order and prints one line per begin
 * ({@code R <intent> <key> <created>}), then DONE. Args: JDBC URL, schema, n, seed.
 */
public final class BeginRacerMain {
  private BeginRacerMain() {}

  public static void main(String[] args) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[0]);
    config.setMaximumPoolSize(4);
    int intents = Integer.parseInt(args[2]);
    try (HikariDataSource pool = new HikariDataSource(config);
        JdbcKeyStore store = JdbcKeyStore.builder().dataSource(pool).schema(args[1]).build()) {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < intents; i++) {
        order.add(i);
      }
      Collections.shuffle(order, new Random(Long.parseLong(args[3])));
      System.out.println("READY");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      ExecutorService threads = Executors.newFixedThreadPool(4);
      List<Future<BeginResult>> results = new ArrayList<>();
      for (int i : order) {
        results.add(
            threads.submit(
                () ->
                    store.begin(
                        JdbcBeginRaceTest.candidate(
                            "order-" + i, "fp-" + i, JdbcBeginRaceTest.T0))));
      }
      for (Future<BeginResult> f : results) {
        BeginResult r = f.get();
        System.out.println(
            "R " + r.record().intentId() + " " + r.record().key() + " " + r.created());
      }
      threads.shutdown();
    }
    System.out.println("DONE");
    System.out.flush();
  }
}
