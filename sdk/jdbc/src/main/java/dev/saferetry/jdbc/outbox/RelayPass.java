package dev.saferetry.jdbc.outbox;

/**
 * What one pass of an {@link OutboxRelay} did.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param claimed intents claimed for sending (those then held {@link HoldReason#UNSENDABLE}
 *     included)
 * @param succeeded sends recorded as succeeded
 * @param rejected sends definitively rejected, held as {@link HoldReason#REJECTED}
 * @param retried sends without a definitive answer, due again after a backoff
 * @param expired intents held as {@link HoldReason#EXPIRED} (too old to send)
 * @param lost sends whose lease was lost or whose outcome could not be recorded: another relay
 *     records them
 * @param reconciled held intents completed by their reconciler
 * @param held intents held, not sent, because their row cannot be sent exactly as it was enqueued:
 *     {@link HoldReason#TAMPERED} (not counted in {@code claimed}) or {@link
 *     HoldReason#UNSENDABLE}; and intents parked as {@link HoldReason#TOO_MANY_ATTEMPTS}
 * @param unsettled sends whose answer a re-send cannot change and that proves nothing, held as
 *     {@link HoldReason#UNSETTLED}
 */
public record RelayPass(
    int claimed,
    int succeeded,
    int rejected,
    int retried,
    int expired,
    int lost,
    int reconciled,
    int held,
    int unsettled) {}
