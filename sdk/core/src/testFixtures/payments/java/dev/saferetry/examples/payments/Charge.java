package dev.saferetry.examples.payments;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A charge as the payments API returns it. Unknown fields in the response are ignored.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param id the charge id, e.g. {@code ch_...}
 * @param object always {@code "charge"}
 * @param amount the amount in minor units (cents)
 * @param amountRefunded how much of it was refunded, in minor units
 * @param currency the ISO 4217 currency code, lower case
 * @param status e.g. {@code succeeded}
 * @param description the caller's description, or null
 * @param customer the customer id, or null
 * @param created creation time in epoch seconds
 */
public record Charge(
    String id,
    String object,
    long amount,
    @JsonProperty("amount_refunded") long amountRefunded,
    String currency,
    String status,
    String description,
    String customer,
    long created) {}
