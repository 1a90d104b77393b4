package dev.saferetry.conformance.server;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Command line of the standalone reference server: {@code --port N --host H --jdbc-url URL
 * --key-header H --key-body-field F --retention-seconds S --lock-timeout-seconds S --test-hooks
 * --no-require-key}. Runs until the JVM is stopped.
 */
final class ReferenceServerMain {
  private ReferenceServerMain() {}

  static void run(String[] args) throws InterruptedException {
    ReferenceServer server = start(args);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.println("SafeRetry reference server listening on " + server.baseUrl());
    new CountDownLatch(1).await();
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
        case "--port" -> b.port(Integer.parseInt(value(args, ++i)));
        case "--host" -> b.host(value(args, ++i));
        case "--jdbc-url" -> b.jdbcUrl(value(args, ++i));
        case "--key-header" -> b.keyHeader(value(args, ++i));
        case "--key-body-field" -> b.keyBodyField(value(args, ++i));
        case "--retention-seconds" ->
            b.retention(Duration.ofSeconds(Long.parseLong(value(args, ++i))));
        case "--lock-timeout-seconds" ->
            b.lockTimeout(Duration.ofSeconds(Long.parseLong(value(args, ++i))));
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
}
