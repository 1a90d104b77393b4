package dev.saferetry.webhook;

/**
 * The rule for a webhook's event or delivery id, the same as the client's rule for any id a server
 * hands on (this artifact depends on nothing but the JDK, so it keeps its own copy): 1 to {@value
 * #MAX_LENGTH} visible ASCII characters (no space, no control character, nothing beyond {@code ~}).
 * Such an id can be logged, stored, compared and put in a later request as it is; anything else
 * (CR/LF, NUL, a 5,000-character text, an unpaired surrogate) is no usable id, and the caller
 * treats it as absent.
 *
 * <p>Thread-safe (stateless).
 */
final class EventIds {
  /** The longest usable id, in characters: what a database column keeps and a log line shows. */
  static final int MAX_LENGTH = 255;

  private EventIds() {}

  /**
   * {@return whether {@code id} is a usable server id: 1 to {@value #MAX_LENGTH} visible ASCII
   * characters}
   *
   * @param id the id, or null
   */
  static boolean isUsable(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c <= 0x20 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }
}
