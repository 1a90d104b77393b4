package dev.saferetry.examples.support;

import dev.saferetry.examples.support.ReceiverHttp.Reply;
import dev.saferetry.examples.support.ReceiverHttp.Route;
import dev.saferetry.jdbc.inbox.InboxHandler;
import dev.saferetry.jdbc.inbox.InboxResult;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTP side of the webhook receiver example: its settings from the command line, {@code POST
 * /webhooks/stripe} served by the receiver's route, {@code GET /effects} counting what it did, and
 * with {@code --test-hooks true} {@code POST /_test/fail-next}, which makes the next delivery's
 * work fail at its end (the conformance suite's {@code hook.fail-next}). Thread-safe.
 */
public final class WebhookEndpoint implements AutoCloseable {
  /**
   * The receiver's settings.
   *
   * @param port the port to bind on loopback, 0 for any free one
   * @param secret the endpoint's {@code whsec_} signing secret
   * @param jdbcUrl the database of the inbox and the orders
   * @param testHooks whether {@code POST /_test/fail-next} is served
   */
  public record Settings(int port, String secret, String jdbcUrl, boolean testHooks) {
    /**
     * {@return the settings {@code --port N --secret whsec_... [--jdbc-url URL] [--test-hooks
     * true]} name; embedded H2 and no test hooks by default}
     *
     * @param args the command line
     * @throws IllegalArgumentException without a secret, or for a malformed option
     */
    public static Settings parse(String[] args) {
      Map<String, String> o = Options.parse(args);
      String secret = o.get("secret");
      if (secret == null) {
        throw new IllegalArgumentException("--secret is required (the endpoint's whsec_ secret)");
      }
      String jdbcUrl = o.getOrDefault("jdbc-url", "jdbc:h2:mem:webhooks;DB_CLOSE_DELAY=-1");
      int port = Integer.parseInt(o.getOrDefault("port", "8088"));
      String hooks = o.getOrDefault("test-hooks", "false");
      if (!hooks.equals("true") && !hooks.equals("false")) {
        throw new IllegalArgumentException("--test-hooks must be true or false, got " + hooks);
      }
      return new Settings(port, secret, jdbcUrl, hooks.equals("true"));
    }
  }

  private final ReceiverHttp http;
  private final DeliveryCounts effects = new DeliveryCounts();
  private final ScheduledExecutorService worker;
  private final AtomicBoolean failNext = new AtomicBoolean(); // a test hook, off unless asked for

  /**
   * Routes {@code receive} and the counts on {@code settings}' port; {@link #start()} serves.
   *
   * @param settings the port and whether test hooks are served
   * @param receive the webhook route
   * @param worker the receiver's background work, shut down on {@link #close()}
   * @throws IOException if the port cannot be bound
   */
  public WebhookEndpoint(Settings settings, Route receive, ScheduledExecutorService worker)
      throws IOException {
    this.worker = worker;
    http = new ReceiverHttp(settings.port()).route("POST", "/webhooks/stripe", receive);
    http.route("GET", "/effects", (body, headers) -> new Reply(200, effects.json()));
    if (settings.testHooks()) {
      http.route("POST", "/_test/fail-next", (body, headers) -> arm());
    }
  }

  private Reply arm() {
    failNext.set(true);
    return new Reply(200, "{\"armed\":\"fail-next\"}");
  }

  /** {@return this endpoint, serving} */
  public WebhookEndpoint start() {
    http.start();
    return this;
  }

  /** {@return the 400 answer to a delivery rejected for {@code why}}, counted */
  public Reply rejected(String why) {
    effects.rejected();
    return new Reply(400, "{\"error\":\"" + why + "\"}");
  }

  /**
   * {@return the 200 answer to a delivery the inbox settled}, counted
   *
   * @param outcome what the inbox did
   * @param handled whether the event is one the receiver handles (else {@code IGNORED})
   */
  public Reply settled(InboxResult outcome, boolean handled) {
    return new Reply(200, "{\"outcome\":\"" + effects.count(outcome, handled) + "\"}");
  }

  /**
   * {@return {@code work}, made to fail at its end, after all it did, when {@code POST
   * /_test/fail-next} was armed}: everything rolls back, as after a crash or a database error
   *
   * @param work the delivery's work in the inbox's transaction
   */
  public InboxHandler withTestHook(InboxHandler work) {
    return tx -> {
      work.handle(tx);
      if (failNext.getAndSet(false)) {
        throw new IllegalStateException("injected failure (POST /_test/fail-next)");
      }
    };
  }

  /** {@return the bound port} */
  public int port() {
    return http.port();
  }

  @Override
  public void close() {
    http.close();
    worker.shutdownNow();
  }
}
