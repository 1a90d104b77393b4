package dev.saferetry.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.CallResult;
import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.StoredCall;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The Stripe preset's {@link Reconciler} for charges: finds the charge whose metadata carries the
 * intent id, with Stripe's documented search endpoint {@code GET /v1/charges/search?query=
 * metadata['<key>']:'<intent id>'}. For it to work, every charge request puts the intent id in that
 * metadata entry (for example {@code metadata[intent_id]=order-42/charge}).
 *
 * <ul>
 *   <li>one charge found: {@code SUCCEEDED} with its id when its {@code status} is {@code
 *       succeeded} or {@code pending}, {@code FAILED} when it is {@code failed};
 *   <li>none found: {@code NOTHING_EXISTS}, but only for an intent older than the search lag
 *       (default 1 hour): Stripe's search is not read-after-write consistent — data is searchable
 *       within about a minute normally, and up to an hour behind during outages — so a younger
 *       intent is {@code UNRESOLVED};
 *   <li>more than one, an answer that is not a search result, or a failed lookup: {@code
 *       UNRESOLVED} (a person looks).
 * </ul>
 *
 * <p>Search is not available to merchants in India; use a lookup of your own there. Immutable and
 * thread-safe.
 */
public final class StripeReconciler implements Reconciler {
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,40}");

  private final String metadataKey;
  private final Duration searchLag;
  private final Clock clock;

  private StripeReconciler(String metadataKey, Duration searchLag, Clock clock) {
    this.metadataKey = metadataKey;
    this.searchLag = searchLag;
    this.clock = clock;
  }

  /**
   * A reconciler of charges carrying the intent id in the metadata entry {@code metadataKey};
   * search lag 1 hour, system clock.
   *
   * @param metadataKey the metadata entry's name: 1..40 letters, digits, {@code _ . -}
   * @return the reconciler
   */
  public static StripeReconciler charges(String metadataKey) {
    Objects.requireNonNull(metadataKey, "metadataKey");
    if (!KEY.matcher(metadataKey).matches()) {
      throw new IllegalArgumentException("metadataKey must be 1..40 letters, digits, _ . or -");
    }
    return new StripeReconciler(metadataKey, Duration.ofHours(1), Clock.systemUTC());
  }

  /**
   * Returns a copy that trusts "nothing found" for intents older than {@code searchLag}, judged by
   * {@code clock}.
   *
   * @param searchLag how far Stripe's search may lag behind; not negative
   * @param clock the clock
   * @return the copy
   */
  public StripeReconciler withSearchLag(Duration searchLag, Clock clock) {
    Objects.requireNonNull(searchLag, "searchLag");
    if (searchLag.isNegative()) {
      throw new IllegalArgumentException("searchLag must not be negative");
    }
    return new StripeReconciler(metadataKey, searchLag, Objects.requireNonNull(clock, "clock"));
  }

  @Override
  public Reconciliation reconcile(IntentRecord intent, SafeRetryClient client) {
    String query =
        "metadata['" + metadataKey + "']:'" + intent.intentId().replace("'", "\\'") + "'";
    String target =
        "v1/charges/search?query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8).replace("+", "%20");
    CallResult<JsonNode> found = StoredCall.lookup(client, target);
    JsonNode data = found.value() == null ? null : found.value().get("data");
    if (data == null || !data.isArray()) {
      return Reconciliation.unresolved("the answer is not a search result");
    }
    if (data.size() > 1) {
      return Reconciliation.unresolved(data.size() + " charges carry this intent id");
    }
    if (data.isEmpty()) {
      return intent.createdAt().plus(searchLag).isBefore(clock.instant())
          ? Reconciliation.nothingExists()
          : Reconciliation.unresolved("no charge yet, but the intent is younger than search lags");
    }
    JsonNode charge = data.get(0);
    String id = charge.path("id").asText("");
    if (id.isEmpty()) {
      return Reconciliation.unresolved("the charge found has no id");
    }
    String status = charge.path("status").asText("");
    if (status.equals("failed")) {
      return Reconciliation.failed(id, "charge failed: " + charge.path("failure_code").asText("?"));
    }
    return Reconciliation.succeeded(id);
  }

  @Override
  public String toString() {
    return "StripeReconciler[charges, metadata " + metadataKey + ", search lag " + searchLag + "]";
  }
}
