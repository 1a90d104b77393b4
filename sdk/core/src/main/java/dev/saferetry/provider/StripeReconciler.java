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
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Stripe preset's {@link Reconciler} for charges: finds the charge whose metadata carries the
 * intent id and the intent's tenant, with Stripe's documented search endpoint {@code GET
 * /v1/charges/search?query=metadata['<key>']:'<intent id>' AND
 * metadata['saferetry_tenant']:'<tenant>'}, and accepts it only when it provably is the intent's
 * charge.
 *
 * <pre>{@code
 * // One intent whose request is known:
 * Reconciliation found =
 *     client.reconcile(intent, StripeReconciler.charge("intent_id", 1000, "eur").onAccount(acct));
 *
 * // Any intent, its expectation looked up in your own records:
 * Reconciler reconciler = StripeReconciler.charges(
 *     intent -> orders.find(intent.intentId())                 // your record of the request
 *         .map(o -> StripeReconciler.charge("intent_id", o.amountMinor(), o.currency())
 *             .onAccount(o.stripeAccount()))
 *         .orElse(null));                                      // null: unknown, UNRESOLVED
 * }</pre>
 *
 * <p>For it to work, every charge request puts the intent id in that metadata entry and the
 * intent's tenant ({@link dev.saferetry.idempotency.IntentScope#tenant()}, {@code default} unless
 * the call named one) in {@code metadata[saferetry_tenant]} ({@link #tenantIn} names another
 * entry), for example {@code
 * metadata[intent_id]=order-42/charge&metadata[saferetry_tenant]=shop-7}. The tenant is part of the
 * proof: tenants that share one Stripe account may use the same intent ids, and a charge made under
 * another tenant, or one that does not name its tenant, never counts. An intent record keeps only a
 * fingerprint of its request, never the request, so what the charge must be — amount, currency, and
 * the connected account or context it was made in — comes from the caller, per intent: exactly the
 * values the intent's request carried, given to {@link #charge}, {@link #onAccount} and {@link
 * #inContext}.
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
 *       the intent id exactly, whose tenant entry equals the intent's tenant exactly, whose {@code amount} and {@code currency} equal the expected ones,
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
 *       lookup, no expectation for the intent, an intent id or tenant with a backslash</td>
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
 * not available to merchants in India; use a lookup of your own there. Immutable and thread-safe.
 */
public final class StripeReconciler implements Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,40}");

  // Stripe's charge search: a plain GET through the client, without a key.
  private static final Operation<Void, JsonNode> SEARCH =
      Operation.get("/v1/charges/search", TypeRef.of(JsonNode.class)).named("lookup");

  /** The metadata entry that carries the intent's tenant unless {@link #tenantIn} names another. */
  public static final String DEFAULT_TENANT_KEY = "saferetry_tenant";

  private final String metadataKey;
  private final String tenantKey;
  private final ExpectedCharge want;

  private StripeReconciler(String metadataKey, String tenantKey, ExpectedCharge want) {
    this.metadataKey = metadataKey;
    this.tenantKey = tenantKey;
    this.want = want;
  }

  /**
   * The reconciler of an intent whose request created a charge of {@code amount} in {@code
   * currency}, carrying the intent id in the metadata entry {@code metadataKey}, made without a
   * {@code Stripe-Account} or {@code Stripe-Context} of its own ({@link #onAccount} and {@link
   * #inContext} add them).
   *
   * @param metadataKey the metadata entry's name: 1..40 letters, digits, {@code _ . -}
   * @param amount the amount in the currency's minor unit, as the request sent it; positive
   * @param currency the three-letter ISO currency code (compared lower case, as Stripe answers it)
   * @return the reconciler
   * @throws IllegalArgumentException if the metadata key is not acceptable, the amount is not
   *     positive or the currency is not three ASCII letters
   */
  public static StripeReconciler charge(String metadataKey, long amount, String currency) {
    checkKey("metadataKey", metadataKey);
    return new StripeReconciler(
        metadataKey, DEFAULT_TENANT_KEY, new ExpectedCharge(amount, currency, null, null));
  }

  /**
   * {@return a copy that reads the intent's tenant from the metadata entry {@code tenantKey}
   * instead of {@value #DEFAULT_TENANT_KEY}}
   *
   * @param tenantKey the metadata entry's name: 1..40 letters, digits, {@code _ . -}, other than
   *     the intent id's
   * @throws IllegalArgumentException if the name is not acceptable or is the intent id's entry
   */
  public StripeReconciler tenantIn(String tenantKey) {
    checkKey("tenantKey", tenantKey);
    if (tenantKey.equals(metadataKey)) {
      throw new IllegalArgumentException("tenantKey must differ from the intent id's metadataKey");
    }
    return new StripeReconciler(metadataKey, tenantKey, want);
  }

  private static void checkKey(String name, String key) {
    Objects.requireNonNull(key, name);
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException(name + " must be 1..40 letters, digits, _ . or -");
    }
  }

  /**
   * {@return a copy for a charge made on the connected account {@code account} ({@code
   * Stripe-Account})}
   *
   * @param account the account id, e.g. {@code acct_1032D82eZvKYlo2C}
   * @throws IllegalArgumentException if the account is not 1..255 visible ASCII characters
   */
  public StripeReconciler onAccount(String account) {
    Objects.requireNonNull(account, "account");
    return new StripeReconciler(
        metadataKey,
        tenantKey,
        new ExpectedCharge(want.amount(), want.currency(), account, want.context()));
  }

  /**
   * {@return a copy for a charge made in the context {@code context} ({@code Stripe-Context})}
   *
   * @param context the context
   * @throws IllegalArgumentException if the context is not 1..255 visible ASCII characters
   */
  public StripeReconciler inContext(String context) {
    Objects.requireNonNull(context, "context");
    return new StripeReconciler(
        metadataKey,
        tenantKey,
        new ExpectedCharge(want.amount(), want.currency(), want.account(), context));
  }

  /**
   * A reconciler of any intent: {@code expected} gives, per intent, the reconciler of the charge
   * its request created ({@link #charge}), from the caller's own record of the request.
   *
   * @param expected each intent's reconciler; it answers {@code null} (or throws) when the charge
   *     is not known, and the intent is then {@code UNRESOLVED}
   * @return the reconciler
   */
  public static Reconciler charges(Function<? super IntentRecord, StripeReconciler> expected) {
    Objects.requireNonNull(expected, "expected");
    return new PerIntent(expected);
  }

  @Override
  public Reconciliation reconcile(IntentRecord intent, SafeRetryClient client) {
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(client, "client");
    String intentId = intent.intentId();
    String tenant = intent.scope().tenant();
    if (intentId.indexOf('\\') >= 0 || tenant.indexOf('\\') >= 0) {
      return backslash();
    }
    RequestOptions search = RequestOptions.none().withQueryParam("query", query(intentId, tenant));
    for (Map.Entry<String, String> h : want.scope().entrySet()) {
      search = search.withHeader(h.getKey(), h.getValue());
    }
    CallResult<JsonNode> found = client.execute(SEARCH, null, search);
    return ChargeHits.judge(found.value(), metadataKey, intentId, tenantKey, tenant, want);
  }

  private static Reconciliation backslash() {
    return Reconciliation.unresolved(
        "the intent id or its tenant holds a backslash, which Stripe's search query language"
            + " gives no documented literal form; look the charge up by hand");
  }

  // The search's query: the intent id and its tenant quoted, ' escaped.
  private String query(String intentId, String tenant) {
    return "metadata['"
        + metadataKey
        + "']:'"
        + intentId.replace("'", "\\'")
        + "' AND metadata['"
        + tenantKey
        + "']:'"
        + tenant.replace("'", "\\'")
        + "'";
  }

  @Override
  public String toString() {
    return "StripeReconciler[charge, metadata " + metadataKey + ", tenant " + tenantKey + "]";
  }

  // Asks for each intent's reconciler, then runs it. Thread-safe if the function is.
  private static final class PerIntent implements Reconciler {
    private final Function<? super IntentRecord, StripeReconciler> expected;

    PerIntent(Function<? super IntentRecord, StripeReconciler> expected) {
      this.expected = expected;
    }

    @Override
    public Reconciliation reconcile(IntentRecord intent, SafeRetryClient client) {
      Objects.requireNonNull(intent, "intent");
      Objects.requireNonNull(client, "client");
      String intentId = intent.intentId();
      if (intentId.indexOf('\\') >= 0 || intent.scope().tenant().indexOf('\\') >= 0) {
        return backslash();
      }
      StripeReconciler want;
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
      return want.reconcile(intent, client);
    }

    @Override
    public String toString() {
      return "StripeReconciler[charges]";
    }
  }
}
