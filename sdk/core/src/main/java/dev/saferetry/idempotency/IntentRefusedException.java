package dev.saferetry.idempotency;

import java.time.Instant;
import java.util.Optional;

/**
 * A {@link KeyStore} (or the outbox built on one) refused to let a caller send, forget or act on an
 * intent, because the intent is not the caller's to act on now: an operator abandoned it ({@link
 * #abandoned()}), or something else holds it — an outbox's relays, which send it in its ordering
 * key's order or hold a lease on it, or a person, for whom it is parked. Nothing was sent and
 * nothing was changed.
 *
 * <p>A client's call that meets this refusal ends at once, {@code UNKNOWN}, with the reason {@code
 * INTENT_ABANDONED} or {@code INTENT_HELD} and this exception as its cause: whether the intent's
 * effect exists is for whoever holds it to say. {@link KeyStore#abandon} and the outbox's operator
 * actions throw it as it is.
 *
 * <p>The message is safe to log: it names the intent, who abandoned it, when and why (as recorded),
 * or what holds it and until when; never a key or a payload.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IntentRefusedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** Whether an operator abandoned the intent. */
  private final boolean abandoned;

  /** Who abandoned it, or the relay whose lease holds it; null when unknown. */
  private final String actor;

  /** The reason recorded for the abandonment, or null. */
  private final String why;

  /** When it was abandoned, or when the lease holding it ends; null when unknown. */
  private final transient Instant at;

  /**
   * Creates a refusal.
   *
   * @param message a message safe to log, naming the intent and what holds it
   * @param abandoned whether an operator abandoned the intent (else something else holds it)
   * @param actor who abandoned it, or the relay whose lease holds it; null when unknown
   * @param why the reason recorded for the abandonment, or null
   * @param at when it was abandoned, or when the lease holding it ends; null when unknown
   */
  public IntentRefusedException(
      String message, boolean abandoned, String actor, String why, Instant at) {
    super(message);
    this.abandoned = abandoned;
    this.actor = actor;
    this.why = why;
    this.at = at;
  }

  /**
   * {@return whether an operator abandoned the intent} Then it is never sent again under its intent
   * id, by anyone, until an operator releases it with an action that is itself recorded; the
   * provider may have acted on it before: reconcile it there. Otherwise the intent is held for
   * another sender or a person (queued for an outbox's relays, under a relay's lease, or parked):
   * ask again once it ended, and its recorded outcome is the answer.
   */
  public boolean abandoned() {
    return abandoned;
  }

  /**
   * {@return who abandoned the intent, as recorded; or the relay whose lease holds it} Empty when
   * neither is known.
   */
  public Optional<String> actor() {
    return Optional.ofNullable(actor);
  }

  /** {@return the reason recorded for the abandonment; empty unless abandoned and recorded} */
  public Optional<String> why() {
    return Optional.ofNullable(why);
  }

  /**
   * {@return when the intent was abandoned, or when the lease holding it ends, by the store's
   * clock} Empty when neither is known.
   */
  public Optional<Instant> at() {
    return Optional.ofNullable(at);
  }
}
