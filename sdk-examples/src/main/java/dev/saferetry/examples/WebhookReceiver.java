package dev.saferetry.examples;

import com.sun.net.httpserver.Headers;
import dev.saferetry.examples.support.ChargeEvent;
import dev.saferetry.examples.support.OrderBook;
import dev.saferetry.examples.support.ReceiverHttp.Reply;
import dev.saferetry.examples.support.WebhookEndpoint;
import dev.saferetry.examples.support.WebhookEndpoint.Settings;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxException;
import dev.saferetry.jdbc.inbox.InboxHandler;
import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.webhook.StripeWebhookVerifier;
import dev.saferetry.webhook.VerifiedWebhook;
import dev.saferetry.webhook.WebhookVerificationException;
import java.util.Optional;

/**
 * Receives Stripe webhooks so that a replayed, concurrent or out-of-order delivery changes nothing
 * twice: verify the signature on the raw bytes, record the event id in the inbox in the same
 * transaction as the order change, skip events older than what the order already saw, queue the
 * slow follow-up work and answer at once. Answers 200 (applied, duplicate, stale, or authentic but
 * not handled), 400 (bad signature, stale timestamp, malformed) or 503 while another delivery of
 * the same event or order is being handled.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java -Dexec.mainClass=dev.saferetry.examples.WebhookReceiver \
 *     -Dexec.args="--port 8088 --secret whsec_... [--jdbc-url jdbc:postgresql://...] [--test-hooks true]"
 * </pre>
 */
public final class WebhookReceiver {
  private final StripeWebhookVerifier verifier;
  private final Inbox inbox;
  private final OrderBook orders; // the orders and the queue of follow-up jobs
  private final WebhookEndpoint http; // POST /webhooks/stripe, GET /effects, the test hook

  private WebhookReceiver(Settings settings) throws Exception {
    verifier = StripeWebhookVerifier.of(settings.secret());
    inbox = Inbox.builder().jdbcUrl(settings.jdbcUrl()).createSchema(true).build();
    orders = OrderBook.open(settings.jdbcUrl());
    http = new WebhookEndpoint(settings, this::receive, orders.startJobWorker());
  }

  private Reply receive(byte[] body, Headers headers) {
    VerifiedWebhook hook;
    Optional<ChargeEvent> charge; // empty: authentic, but nothing this receiver handles
    try {
      hook = verifier.verify(body, headers); // first, on the raw bytes
      charge = ChargeEvent.parse(hook.payload());
    } catch (WebhookVerificationException | IllegalArgumentException e) {
      return http.rejected(
          e instanceof WebhookVerificationException w ? w.failure().name() : "MALFORMED");
    }
    InboxHandler work = // the receipt, the order change and the queued job commit together
        tx -> {
          ChargeEvent e = charge.orElse(null);
          if (e != null && tx.advance("order:" + e.orderId(), e.position())) {
            orders.apply(tx.connection(), hook.id(), e); // else older than the order: STALE
          }
        };
    try { // the event id is the deduplication key; an ignored event gets a receipt too
      InboxResult outcome = inbox.receive("orders", hook.id(), http.withTestHook(work));
      return http.settled(outcome, charge.isPresent());
    } catch (InboxException e) { // BUSY: not recorded; whether the other one commits is unknown
      if (e.kind() != InboxException.Kind.BUSY) throw e;
      return new Reply(503, "{\"error\":\"busy\"}", 1);
    }
  }

  /** Starts a receiver with {@code settings}; closing what it returns stops it. */
  static WebhookEndpoint start(Settings settings) throws Exception {
    return new WebhookReceiver(settings).http.start();
  }

  /** {@code --port N --secret whsec_... [--jdbc-url URL] [--test-hooks true]}; H2 by default. */
  public static void main(String[] args) throws Exception {
    WebhookEndpoint receiver = start(Settings.parse(args));
    System.out.println("receiving on http://127.0.0.1:" + receiver.port() + "/webhooks/stripe");
  }
}
