package dev.saferetry.examples.payments;

/**
 * A refund as the payments API returns it. Unknown fields in the response are ignored.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param id the refund id, e.g. {@code re_...}
 * @param object always {@code "refund"}
 * @param charge the refunded charge's id
 * @param amount the refunded amount in minor units
 * @param status e.g. {@code succeeded}
 */
public record Refund(String id, String object, String charge, long amount, String status) {}
