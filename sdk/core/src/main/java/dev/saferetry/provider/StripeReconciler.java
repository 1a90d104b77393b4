package dev.saferetry.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.codec.TypeRef;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.ServerIds;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Stripe preset's {@link Reconciler} for charges: finds the charge whose metadata carries the
 * intent id, with Stripe's documented search endpoint {@code GET /v1/charges/search?query=
 * metadata['<key>']:'<intent id>'}, and accepts it only when it provably is the intent's charge.
 *
 * <pre>{@code
 * StripeReconciler reconciler = StripeReconciler.charges("intent_id",
 *     intent -> orders.find(intent.intentId())                 // your record of the request
 *         .map(o -> ExpectedCharge.of(o.amountMinor(), o.currency()).onAccount(o.stripeAccount()))
 *         .orElse(null));                                      // null: unknown, UNRESOLVED
 * Reconciliation found = client.reconcile(intent, reconciler);
 * }</pre>
 *
 * <p>For it to work, every charge request puts the intent id in that metadata entry (for example
 * {@code metadata[intent_id]=order-42/charge}). An intent record keeps only a fingerprint of its
 * request, never the request, so what the charge must be — amount, currency, and the connected
 * account or context it was made in — comes from the caller, per intent, as an {@link
 * ExpectedCharge}: exactly the values the intent's request carried.
 *
 * <p>The search is sent through the client (its credentials, retries, breaker), scoped like the
 * intent's request: with the expected {@code Stripe-Account} and {@code Stripe-Context} headers
 * over the client's default headers, just as the request combined them. A charge does not name its
 * account, so the account is proven by asking within it: Stripe answers a search made with {@code
 * Stripe-Account} from that account's charges only.
 *
 * <table>
 *   <caption>What the search proves</caption>
 *   <tr><th>Found</th><th>Reconciliation</th></tr>
 *   <tr><td>exactly one charge (and {@code has_more} false) whose {@code metadata[<key>]} equals
 *       the intent id exactly, whose {@code amount} and {@code currency} equal the expected ones,
 *       with {@code status} {@code succeeded} or {@code pending}</td><td>{@code SUCCEEDED} with
 *       its id</td></tr>
 *   <tr><td>the same, with {@code status} {@code failed}</td><td>{@code FAILED} with its id and
 *       its {@code failure_code}</td></tr>
 *   <tr><td>no charge</td><td>{@code UNRESOLVED}: Stripe's search is not read-after-write
 *       consistent ("data is searchable in under 1 minute" normally; "propagation of new or
 *       updated data could be delayed during an outage", with no bound given), so an empty answer
 *       never proves that nothing exists</td></tr>
 *   <tr><td>two or more charges, a charge that differs in any checked field or has any other
 *       status, a charge without a usable id, an answer that is not a search result, a failed
 *       lookup, no expectation for the intent, an intent id with a backslash</td>
 *       <td>{@code UNRESOLVED} (a person looks)</td></tr>
 * </table>
 *
 * <p>The status rule: {@code succeeded} and {@code pending} are the statuses of a charge that
 * {@code POST /v1/charges} answered with {@code 200}, which the SDK records as {@code SUCCEEDED} (a
 * pending charge may still fail later, but the request that created it succeeded); {@code failed}
 * is a charge the request was answered with {@code 402} for, recorded as {@code FAILED}. Any other
 * status is not one Stripe documents for a charge and proves nothing.
 *
 * <p>This reconciler never answers {@code NOTHING_EXISTS}. The query escapes {@code '} as {@code
 * \'}, as Stripe's query language documents; it documents no literal form of a backslash, so an
 * intent id holding one is not searched ({@code UNRESOLVED}). Whatever the search returns is
 * checked against the intent before it counts, so no query quirk can make a charge count. Search is
 * not available to merchants in India; use a lookup of your own there. Immutable and thread-safe if
 * the expectation function is.
 */
public final class StripeReconciler implements Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,40}");

  /** Stripe's charge search: a plain GET through the client, without a key. */
  private static final Operation<Void, JsonNode> SEARCH =
      Operation.get("/v1/charges/search", TypeRef.of(JsonNode.class)).named("lookup");

  private final String metadataKey;
  private final Function<? super IntentRecord, ExpectedCharge> expected;

  private StripeReconciler(
      String metadataKey, Function<? super IntentRecord, ExpectedCharge> expected) {
    this.metadataKey = metadataKey;
    this.expected = expected;
  }

  /**
   * A reconciler of charges carrying the intent id in the metadata entry {@code metadataKey}.
   *
   * @param metadataKey the metadata entry's name: 1..40 letters, digits, {@code _ . -}
   * @param expected what each intent's charge must be: the amount, currency and account its request
   *     carried; it answers {@code null} (or throws) when that is not known, and the intent is then
   *     {@code UNRESOLVED}
   * @return the reconciler
   * @throws IllegalArgumentException if the metadata key is not acceptable
   */
  public static StripeReconciler charges(
      String metadataKey, Function<? super IntentRecord, ExpectedCharge> expected) {
    Objects.requireNonNull(metadataKey, "metadataKey");
    Objects.requireNonNull(expected, "expected");
    if (!KEY.matcher(metadataKey).matches()) {
      throw new IllegalArgumentException("metadataKey must be 1..40 letters, digits, _ . or -");
    }
    return new StripeReconciler(metadataKey, expected);
  }

  @Override
  public Reconciliation reconcile(IntentRecord intent, SafeRetryClient client) {
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(client, "client");
    String intentId = intent.intentId();
    if (intentId.indexOf('\\') >= 0) {
      return Reconciliation.unresolved(
          "the intent id holds a backslash, which Stripe's search query language gives no"
              + " documented literal form; look the charge up by hand");
    }
    ExpectedCharge want;
    try {
      want = expected.apply(intent);
    } catch (RuntimeException e) {
      LOG.warn("the expected charge of intent {} could not be determined", intentId, e);
      return Reconciliation.unresolved(
          "the expected charge could not be determined (" + e.getClass().getSimpleName() + ")");
    }
    if (want == null) {
      return Reconciliation.unresolved("no expected charge is known for the intent");
    }
    RequestOptions search = RequestOptions.none().withQueryParam("query", query(intentId));
    for (Map.Entry<String, String> h : want.scope().entrySet()) {
      search = search.withHeader(h.getKey(), h.getValue());
    }
    CallResult<JsonNode> found = client.execute(SEARCH, null, search);
    return ChargeHits.judge(found.value(), metadataKey, intentId, want);
  }

  /** The search's query: the intent id quoted, {@code '} escaped. */
  private String query(String intentId) {
    return "metadata['" + metadataKey + "']:'" + intentId.replace("'", "\\'") + "'";
  }

  @Override
  public String toString() {
    return "StripeReconciler[charges, metadata " + metadataKey + "]";
  }

  /**
   * What the charge an intent created must be: the values its request carried. Every field is
   * compared exactly with the charge found.
   *
   * <p>Instances are immutable and thread-safe.
   *
   * @param amount the amount in the currency's minor unit, as the request sent it; positive
   * @param currency the three-letter ISO currency code; stored lower case, as Stripe answers it
   * @param account the {@code Stripe-Account} the request was sent with (a connected account), or
   *     {@code null} when the request set none of its own
   * @param context the {@code Stripe-Context} the request was sent with, or {@code null} when the
   *     request set none of its own
   */
  public record ExpectedCharge(long amount, String currency, String account, String context) {

    /**
     * Validates the expectation.
     *
     * @param amount the amount in the currency's minor unit; positive
     * @param currency the three-letter ISO currency code
     * @param account the {@code Stripe-Account} of the request, or {@code null}
     * @param context the {@code Stripe-Context} of the request, or {@code null}
     * @throws IllegalArgumentException if the amount is not positive, the currency is not three
     *     ASCII letters, or the account or context is not 1..255 visible ASCII characters
     */
    public ExpectedCharge {
      if (amount <= 0) {
        throw new IllegalArgumentException("amount must be positive, was " + amount);
      }
      Objects.requireNonNull(currency, "currency");
      if (!currency.matches("[A-Za-z]{3}")) {
        throw new IllegalArgumentException("currency must be three ASCII letters");
      }
      currency = currency.toLowerCase(Locale.ROOT);
      checkScope("account", account);
      checkScope("context", context);
    }

    /**
     * An expectation of a charge made without a {@code Stripe-Account} or {@code Stripe-Context} of
     * its own.
     *
     * @param amount the amount in the currency's minor unit; positive
     * @param currency the three-letter ISO currency code
     * @return the expectation
     */
    public static ExpectedCharge of(long amount, String currency) {
      return new ExpectedCharge(amount, currency, null, null);
    }

    /**
     * {@return a copy made on the connected account {@code account} ({@code Stripe-Account})}
     *
     * @param account the account id, e.g. {@code acct_1032D82eZvKYlo2C}, or {@code null} for none
     */
    public ExpectedCharge onAccount(String account) {
      return new ExpectedCharge(amount, currency, account, context);
    }

    /**
     * {@return a copy made in the context {@code context} ({@code Stripe-Context})}
     *
     * @param context the context, or {@code null} for none
     */
    public ExpectedCharge inContext(String context) {
      return new ExpectedCharge(amount, currency, account, context);
    }

    /** The headers that scope the search as the request was scoped. */
    Map<String, String> scope() {
      Map<String, String> headers = new LinkedHashMap<>();
      if (account != null) {
        headers.put("Stripe-Account", account);
      }
      if (context != null) {
        headers.put("Stripe-Context", context);
      }
      return headers;
    }

    private static void checkScope(String name, String value) {
      if (value != null && !ServerIds.isUsable(value)) {
        throw new IllegalArgumentException(name + " must be 1..255 visible ASCII characters");
      }
    }
  }
}
