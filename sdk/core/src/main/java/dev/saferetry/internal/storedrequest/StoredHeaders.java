package dev.saferetry.internal.storedrequest;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which header names a stored request may carry, and where its key may go. A stored request is sent
 * later, possibly by another process, with that process's credentials: so it never holds a
 * credential (a name the SDK treats as one anywhere: {@link #isCredential}), nor a header that
 * frames the request or that the SDK sets per attempt, any of which would let the stored request
 * decide where or as whom it is sent.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoredHeaders {
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
  private static final int MAX_FIELD = 255;

  // Headers that frame or route the request, or that the SDK sets on every attempt: a stored one
  // would change where the request goes or how it is read, or be silently replaced.
  private static final Set<String> RESERVED =
      Set.of(
          "host",
          "content-length",
          "content-type",
          "transfer-encoding",
          "connection",
          "keep-alive",
          "te",
          "trailer",
          "upgrade",
          "proxy-connection",
          "expect",
          "x-request-id",
          "idempotency-key");

  private StoredHeaders() {}

  /** Whether the SDK treats a header of this name as carrying a credential. */
  public static boolean isCredential(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.contains("auth")
        || n.contains("cookie")
        || n.contains("key")
        || n.contains("token")
        || n.contains("secret")
        || n.contains("password")
        || n.contains("signature");
  }

  /**
   * Checks a stored header's name: a token, no credential, nothing that frames the request.
   *
   * @throws IllegalArgumentException naming the header, never its value
   */
  public static void checkName(String name) {
    if (!TOKEN.matcher(name).matches()) {
      throw new IllegalArgumentException("header names must be HTTP tokens of 1..128 characters");
    }
    if (isCredential(name)) {
      throw new IllegalArgumentException(
          "credential header " + name + " is never stored; the sender adds its own");
    }
    if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(
          "header " + name + " is set by the sender or its HTTP client and is never stored");
    }
  }

  /**
   * Checks where a stored request's key goes: a header that is a token and neither frames the
   * request nor carries the sender's credentials, or a body field of 1..255 characters without
   * control characters or unpaired surrogates.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static void checkPlacement(String name, boolean inBody) {
    if (inBody) {
      checkField(name);
      return;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (!TOKEN.matcher(name).matches()
        || (RESERVED.contains(lower) && !lower.equals("idempotency-key"))
        || lower.contains("auth")
        || lower.contains("cookie")) {
      throw new IllegalArgumentException(
          "keyPlacement must name a header that is a token and neither a credential nor one the"
              + " sender sets");
    }
  }

  // A body field: 1..255 characters, no control character, no unpaired surrogate.
  private static void checkField(String name) {
    String what = "keyPlacement body field";
    if (name.isEmpty() || name.length() > MAX_FIELD) {
      throw new IllegalArgumentException(what + " must be 1.." + MAX_FIELD + " characters");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == 0) {
        throw new IllegalArgumentException(what + " contains a NUL character");
      }
      if (Character.isISOControl(c)) {
        throw new IllegalArgumentException(what + " contains a control character");
      }
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < name.length()
                && Character.isLowSurrogate(name.charAt(i + 1));
        if (!paired) {
          throw new IllegalArgumentException(what + " contains an unpaired surrogate");
        }
        i++;
      }
    }
  }
}
