package dev.saferetry.conformance.server;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Command line of the standalone reference server: {@code --port N --host H --jdbc-url URL
 * --key-header H --key-body-field F --retention-seconds S --lock-timeout-seconds S --test-hooks
 * --no-require-key}, or {@code --help}. Runs until the JVM is stopped.
 */
final class ReferenceServerMain {
  /** What {@code --help} prints, and what a usage error prints after its message. */
  static final String USAGE =
      String.join(
          System.lineSeparator(),
          "usage: java -cp saferetry-conformance-<version>-all.jar"
              + " dev.saferetry.conformance.server.ReferenceServer [options]",
          "",
          "Starts the SafeRetry reference server (a charges API honouring the Idempotency-Key",
          "contract) and serves until stopped.",
          "",
          "  --port N                  TCP port (default 8080; 0 picks a free one)",
          "  --host H                  bind address (default 127.0.0.1)",
          "  --jdbc-url URL            database (default: a private in-memory H2 database)",
          "  --key-header H            the key header (default Idempotency-Key)",
          "  --key-body-field F        read the key from this top-level body field instead",
          "  --retention-seconds S     how long a key's record counts (default 86400)",
          "  --lock-timeout-seconds S  when a pending record may be taken over (default 30)",
          "  --test-hooks              serve the /_test/... hooks (off by default)",
          "  --no-require-key          execute POSTs without a key instead of answering 400",
          "  -h, --help                print this and exit",
          "");

  /**
   * What a command line came to: a started server, or none and the status the process ends with.
   *
   * @param server the started server, or null
   * @param exitStatus 0 after {@code --help}, 2 after a usage or start-up error
   */
  record Launch(ReferenceServer server, int exitStatus) {}

  private ReferenceServerMain() {}

  static void run(String[] args) throws InterruptedException {
    Launch launch = launch(args, System.out, System.err);
    if (launch.server() == null) {
      System.exit(launch.exitStatus());
    }
    ReferenceServer server = launch.server();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.println("SafeRetry reference server listening on " + server.baseUrl());
    new CountDownLatch(1).await();
  }

  /**
   * Reads the command line: {@code --help} prints the usage to {@code out} (status 0); a malformed
   * option prints its message and the usage to {@code err}, a server that cannot start its reason
   * (status 2), never a stack trace; otherwise the server is started.
   */
  static Launch launch(String[] args, PrintStream out, PrintStream err) {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      out.print(USAGE);
      return new Launch(null, 0);
    }
    try {
      return new Launch(start(args), 0);
    } catch (IllegalArgumentException e) {
      err.println("reference server: " + e.getMessage());
      err.print(USAGE);
      return new Launch(null, 2);
    } catch (IllegalStateException | UncheckedIOException e) {
      err.println("reference server cannot start: " + e.getMessage());
      return new Launch(null, 2);
    }
  }

  /**
   * Builds and starts a server from the command line's options.
   *
   * @throws IllegalArgumentException for an unknown option or a malformed value
   */
  static ReferenceServer start(String[] args) {
    ReferenceServer.Builder b = ReferenceServer.builder().testHooks(false).port(8080);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> b.port(port(args, ++i));
        case "--host" -> b.host(value(args, ++i));
        case "--jdbc-url" -> b.jdbcUrl(value(args, ++i));
        case "--key-header" -> b.keyHeader(value(args, ++i));
        case "--key-body-field" -> b.keyBodyField(value(args, ++i));
        case "--retention-seconds" -> b.retention(Duration.ofSeconds(number(args, ++i)));
        case "--lock-timeout-seconds" -> b.lockTimeout(Duration.ofSeconds(number(args, ++i)));
        case "--test-hooks" -> b.testHooks(true);
        case "--no-require-key" -> b.requireKey(false);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    return b.build().start();
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  private static int port(String[] args, int i) {
    long port = number(args, i);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0 to 65535, got " + port);
    }
    return (int) port;
  }

  private static long number(String[] args, int i) {
    String value = value(args, i);
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(args[i - 1] + " needs a whole number, got " + value);
    }
  }
}
