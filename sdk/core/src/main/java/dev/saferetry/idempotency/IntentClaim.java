package dev.saferetry.idempotency;

/**
 * Who holds an intent recorded earlier while {@code SafeRetryClient.send} sends its stored request:
 * the claim source of such a call, in place of the client's key store. A relay implements it over
 * its lease, so that only the current holder sends and records.
 *
 * <p>The call never records the intent itself: it sends with {@link #intent()}'s key (judging its
 * expiry at the client's key store's time), asks {@link #stillOwned()} before each attempt and
 * stops without sending when the answer is {@code false}, and hands a definitive answer to {@link
 * #complete} for the holder to record.
 *
 * <p>A call asks from the thread it runs on; an implementation used by one call at a time needs no
 * synchronisation.
 */
public interface IntentClaim {

  /**
   * {@return the pending intent the stored request belongs to} Its key goes on every attempt; its
   * fingerprint and scope are the ones recorded with it.
   */
  IntentRecord intent();

  /**
   * Answers, before each attempt, whether the caller still holds the intent (e.g. renews its
   * lease). On {@code false} the call stops at once, sends nothing more and hands nothing to {@link
   * #complete}; it ends as cancelled.
   *
   * @return whether the next attempt may be sent
   */
  boolean stillOwned();

  /**
   * Receives the intent's definitive outcome ({@link IntentState#SUCCEEDED} or {@link
   * IntentState#FAILED}, with the provider's status), to record as the holder sees fit. Called at
   * most once, before the call returns or throws. An exception thrown here is logged and does not
   * change what the call returns.
   *
   * @param outcome the intent completed
   */
  void complete(IntentRecord outcome);
}
