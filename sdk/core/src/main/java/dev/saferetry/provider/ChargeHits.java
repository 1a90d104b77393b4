package dev.saferetry.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.Reconciliation;
import dev.saferetry.internal.ServerIds;
import java.util.regex.Pattern;

/**
 * Judges a Stripe charge search for one intent: a charge counts only when it provably is the
 * intent's — the only hit, the intent id and its tenant exactly in its metadata, the expected
 * amount and currency, a status that says what its request was answered with. Every note is the
 * SDK's own words: no server text reaches one except a failure code of the form Stripe documents.
 * Stateless; thread-safe.
 */
final class ChargeHits {
  private static final Pattern FAILURE_CODE = Pattern.compile("[a-z0-9_]{1,64}");

  private ChargeHits() {}

  static Reconciliation judge(
      JsonNode answer,
      String metadataKey,
      String intentId,
      String tenantKey,
      String tenant,
      ExpectedCharge want) {
    if (answer == null
        || !answer.isObject()
        || !answer.path("object").asText("").equals("search_result")
        || !answer.path("data").isArray()) {
      return Reconciliation.unresolved("the answer is not a charge search result");
    }
    JsonNode data = answer.get("data");
    if (data.size() > 1 || answer.path("has_more").asBoolean(false)) {
      return Reconciliation.unresolved(
          "more than one charge carries this intent id (" + data.size() + " on the first page)");
    }
    if (data.isEmpty()) {
      return Reconciliation.unresolved(
          "no charge found, which proves nothing: Stripe's search may lag behind, during an"
              + " outage without a documented bound");
    }
    JsonNode hit = data.get(0);
    JsonNode owner = hit.path("metadata").get(tenantKey);
    if (owner == null || !owner.isTextual() || !owner.textValue().equals(tenant)) {
      return Reconciliation.unresolved(
          "the charge found does not name exactly this intent's tenant in metadata["
              + tenantKey
              + "]");
    }
    return one(hit, metadataKey, intentId, want);
  }

  private static Reconciliation one(
      JsonNode charge, String metadataKey, String intentId, ExpectedCharge want) {
    if (!charge.isObject() || !charge.path("object").asText("").equals("charge")) {
      return Reconciliation.unresolved("the hit is not a charge");
    }
    JsonNode id = charge.get("id");
    if (id == null || !id.isTextual() || !ServerIds.isUsable(id.textValue())) {
      return Reconciliation.unresolved("the charge found has no usable id");
    }
    JsonNode named = charge.path("metadata").get(metadataKey);
    if (named == null || !named.isTextual() || !named.textValue().equals(intentId)) {
      return Reconciliation.unresolved(
          "the charge found does not name exactly this intent in metadata[" + metadataKey + "]");
    }
    JsonNode amount = charge.get("amount");
    if (amount == null
        || !amount.isIntegralNumber()
        || !amount.canConvertToLong()
        || amount.longValue() != want.amount()) {
      return Reconciliation.unresolved("the charge found is not for the expected amount");
    }
    JsonNode currency = charge.get("currency");
    if (currency == null
        || !currency.isTextual()
        || !currency.textValue().equals(want.currency())) {
      return Reconciliation.unresolved("the charge found is not in the expected currency");
    }
    JsonNode status = charge.get("status");
    String s = status != null && status.isTextual() ? status.textValue() : "";
    switch (s) {
      case "succeeded":
      case "pending":
        return Reconciliation.succeeded(id.textValue());
      case "failed":
        String code = charge.path("failure_code").asText("");
        return Reconciliation.failed(
            id.textValue(),
            "charge failed" + (FAILURE_CODE.matcher(code).matches() ? ": " + code : ""));
      default:
        return Reconciliation.unresolved(
            "the charge found has a status that proves nothing about its request");
    }
  }
}
