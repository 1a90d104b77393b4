package dev.saferetry.examples;

import com.sun.net.httpserver.Headers;
import dev.saferetry.examples.harness.Options;
import dev.saferetry.examples.harness.ReceiverHttp;
import dev.saferetry.examples.harness.ReceiverHttp.Reply;
import dev.saferetry.jdbc.Inbox;
import dev.saferetry.jdbc.InboxException;
import dev.saferetry.jdbc.InboxOutcome;
import dev.saferetry.webhook.StripeWebhookVerifier;
import dev.saferetry.webhook.VerifiedWebhook;
import dev.saferetry.webhook.WebhookVerificationException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Receives Stripe webhooks so that a replayed, concurrent or out-of-order delivery changes nothing
 * twice: verify the signature on the raw bytes, record the event id in the inbox in the same
 * transaction as the order change, skip events older than what the order already saw, queue the
 * slow follow-up work and answer at once. Authentic events it does not handle are acknowledged too:
 * a provider retries every other answer for days.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.WebhookReceiver \
 *     -Dexec.args="--port 8088 --secret whsec_... [--jdbc-url jdbc:postgresql://...] [--test-hooks true]"
 * </pre>
 *
 * {@code POST /webhooks/stripe} answers 200 for applied, duplicate, stale and ignored deliveries,
 * 400 for rejected ones (bad signature, stale timestamp, malformed), and 503 with {@code
 * Retry-After} while another delivery of the same event (or about the same order) is still being
 * handled: nothing was recorded, so the provider must deliver it again; {@code GET /effects} counts
 * them. With {@code --test-hooks true}, {@code POST /_test/fail-next} makes the next delivery the
 * handler runs fail at its end, as a crash or a database error would: everything it did rolls back
 * and it answers 500 (the conformance suite's {@code hook.fail-next}).
 */
public final class WebhookReceiver implements AutoCloseable {
  private final DeliveryCounts effects = new DeliveryCounts();
  private final StripeWebhookVerifier verifier;
  private final Inbox inbox;
  private final OrderBook orders;
  private final ScheduledExecutorService jobWorker;
  private final ReceiverHttp http;
  private final AtomicBoolean failNext = new AtomicBoolean(); // a test hook, off unless asked for

  WebhookReceiver(int port, String secret, String jdbcUrl) throws Exception {
    this(port, secret, jdbcUrl, false);
  }

  WebhookReceiver(int port, String secret, String jdbcUrl, boolean testHooks) throws Exception {
    verifier = StripeWebhookVerifier.builder().secret(secret).build();
    inbox = Inbox.builder().jdbcUrl(jdbcUrl).createSchema(true).build();
    orders = OrderBook.open(jdbcUrl);
    jobWorker = orders.startJobWorker();
    http = new ReceiverHttp(port).route("POST", "/webhooks/stripe", this::receive);
    http.route("GET", "/effects", (body, headers) -> new Reply(200, effects.json()));
    if (testHooks) {
      http.route("POST", "/_test/fail-next", (body, headers) -> armFailure());
    }
    http.start();
  }

  private Reply armFailure() {
    failNext.set(true);
    return new Reply(200, "{\"armed\":\"fail-next\"}");
  }

  private Reply receive(byte[] body, Headers headers) {
    VerifiedWebhook hook;
    Optional<ChargeEvent> charge; // empty: authentic, but nothing this receiver handles
    try {
      hook = verifier.verify(body, headers); // first, on the raw bytes
      charge = ChargeEvent.parse(hook.payload());
    } catch (WebhookVerificationException | IllegalArgumentException e) {
      effects.rejected();
      String why = e instanceof WebhookVerificationException w ? w.failure().name() : "MALFORMED";
      return new Reply(400, "{\"error\":\"" + why + "\"}");
    }
    // Receipt, order change and queued job commit together; the event id is the dedup key. An
    // ignored event gets a receipt too: acknowledged, never retried, its redeliveries duplicates.
    InboxOutcome outcome;
    try {
      outcome =
          inbox.receive(
              "orders",
              hook.id(),
              tx -> {
                ChargeEvent e = charge.orElse(null);
                if (e != null && tx.advance("order:" + e.orderId(), e.position())) {
                  orders.apply(tx.connection(), hook.id(), e);
                }
                if (failNext.getAndSet(false)) { // the test hook: fail after all the work
                  throw new IllegalStateException("injected failure (POST /_test/fail-next)");
                }
              });
    } catch (InboxException e) {
      if (e.kind() != InboxException.Kind.BUSY) {
        throw e;
      }
      // Not recorded, not acknowledged: whether the other delivery commits is not known yet.
      return new Reply(503, "{\"error\":\"busy\"}", 1);
    }
    return new Reply(200, "{\"outcome\":\"" + effects.count(outcome, charge.isPresent()) + "\"}");
  }

  int port() {
    return http.port();
  }

  @Override
  public void close() {
    http.close();
    jobWorker.shutdownNow();
  }

  /**
   * {@code --port N --secret whsec_... [--jdbc-url URL] [--test-hooks true]}; embedded H2 by
   * default, test hooks off.
   */
  public static void main(String[] args) throws Exception {
    WebhookReceiver receiver = start(args);
    System.out.println("receiving on http://127.0.0.1:" + receiver.port() + "/webhooks/stripe");
  }

  static WebhookReceiver start(String[] args) throws Exception {
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
    boolean testHooks = hooks.equals("true");
    return new WebhookReceiver(port, secret, jdbcUrl, testHooks);
  }
}
