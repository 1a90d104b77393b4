package dev.saferetry.soak;

import java.util.Map;

/**
 * The chaos soak: client worker processes create charges through a fault-injecting proxy in front
 * of the reference server while they are killed with SIGKILL and restarted on their file key stores
 * (or on one shared JDBC key store); at the end every intent must have caused exactly one side
 * effect.
 *
 * <pre>
 * mvn -B -q -pl sdk/soak -am compile exec:java -Dexec.args="--intents 10000 --workers 4"
 * # PostgreSQL: add --jdbc-url jdbc:postgresql://127.0.0.1:5432/test?user=postgres
 * # one key store in a database shared by all workers (a fresh schema on PostgreSQL):
 * #   --store jdbc --store-url jdbc:postgresql://127.0.0.1:5432/test?user=postgres
 * </pre>
 *
 * <p>Options (defaults in {@link SoakConfig}): {@code --intents}, {@code --workers}, {@code
 * --threads}, {@code --fault-rate}, {@code --kill-interval-ms}, {@code --kill-every-intents},
 * {@code --time-cap-s}, {@code --jdbc-url}, {@code --read-timeout-ms}, {@code --lock-timeout-ms},
 * {@code --seed}, {@code --store file|memory|jdbc} and {@code --store-url}. {@code --store memory}
 * is the negative control (workers forget their keys on restart, so the run must report
 * duplicates); {@code --store jdbc} gives all workers one {@code JdbcKeyStore} (at {@code
 * --store-url}, or an embedded H2 file database without it): a killed worker stays down for 3 s
 * while the surviving workers re-drive its pending intents with their keys; the first kill waits
 * for a worker to hold a pending intent that the proxy keeps from the server, and that worker stays
 * down until a survivor has re-driven it. Exits with 1 on any duplicate, lost, unresolved or failed
 * intent, 2 on a bad option.
 */
public final class ChaosSoak {
  private ChaosSoak() {}

  /**
   * Runs one soak.
   *
   * @return the figures; {@link SoakReport#ok()} says whether the run passed
   */
  public static SoakReport run(SoakConfig config) throws Exception {
    return new SoakRun(config, System.out).run();
  }

  /** Runs the soak from the command line; see the class comment. */
  public static void main(String[] args) throws Exception {
    SoakConfig config;
    try {
      Map<String, String> options = Options.parse(args);
      config = SoakConfig.fromOptions(options);
    } catch (IllegalArgumentException e) {
      System.err.println("bad option: " + e.getMessage());
      System.exit(2);
      return;
    }
    SoakReport report = run(config);
    report.print(System.out);
    System.exit(report.ok() ? 0 : 1);
  }
}
