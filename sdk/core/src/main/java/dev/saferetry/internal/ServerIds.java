package dev.saferetry.internal;

/**
 * The one rule for an id a server hands the SDK that the SDK hands on — a resource id from a
 * conflict or a reconciliation, a webhook's event or delivery id: 1 to {@value #MAX_LENGTH} visible
 * ASCII characters (no space, no control character, nothing beyond {@code ~}). Such an id can be
 * logged, stored, compared and put in a later request as it is; anything else (CR/LF, NUL, a
 * 5,000-character text, an unpaired surrogate) is no usable id, and the caller treats it as absent.
 * Not API.
 *
 * <p>Thread-safe (stateless).
 */
public final class ServerIds {
  /** The longest usable id, in characters: what a database column keeps and a log line shows. */
  public static final int MAX_LENGTH = 255;

  private ServerIds() {}

  /**
   * {@return whether {@code id} is a usable server id}
   *
   * @param id the id, or null
   */
  public static boolean isUsable(String id) {
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
