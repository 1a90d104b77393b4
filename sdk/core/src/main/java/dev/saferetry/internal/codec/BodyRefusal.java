package dev.saferetry.internal.codec;

/**
 * A value the codecs refuse to encode, thrown from inside Jackson's serialization (which wraps it)
 * and unwrapped by the codec, so the caller sees this message: it names the field, never a value.
 */
final class BodyRefusal extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  BodyRefusal(String message) {
    super(message);
  }

  /** Returns the refusal among {@code e}'s causes, or null when {@code e} has another cause. */
  static BodyRefusal in(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BodyRefusal refusal) {
        return refusal;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }
}
