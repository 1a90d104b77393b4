package dev.saferetry.internal.jdbc;

import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.internal.Redaction;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which header names a stored request may carry, and how its key's placement is written in the
 * table. A stored row is sent later, by another process, with that process's credentials: so a row
 * never holds a credential (a name the SDK treats as one anywhere: {@link
 * Redaction#isCredentialHeader}), nor a header that frames the request or that the SDK sets per
 * attempt, any of which would let the row decide where or as whom it is sent.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoredHeaders {
  /** The longest placement text: its kind, a colon and a name of at most 255 characters. */
  public static final int MAX_PLACEMENT = 300;

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
  private static final int MAX_FIELD = 255;

  /**
   * Headers that frame or route the request, or that the SDK sets on every attempt: a stored one
   * would change where the request goes or how it is read, or be silently replaced.
   */
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

  private static final String HEADER = "header:";
  private static final String STRUCTURED = "structured-header:";
  private static final String BODY = "body-field:";

  private StoredHeaders() {}

  /** Whether the SDK treats a header of this name as carrying a credential. */
  public static boolean isCredential(String name) {
    return Redaction.isCredentialHeader(name);
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
  public static KeyPlacement checkPlacement(KeyPlacement placement) {
    String name = placement.name();
    if (placement.inBody()) {
      StoredText.checkId("keyPlacement body field", name, MAX_FIELD);
      return placement;
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
    return placement;
  }

  /** The placement as the table holds it, e.g. {@code header:Idempotency-Key}. */
  public static String encode(KeyPlacement placement) {
    String kind = placement.inBody() ? BODY : placement.structured() ? STRUCTURED : HEADER;
    return kind + placement.name();
  }

  /**
   * Reads a placement back from the table.
   *
   * @throws IllegalArgumentException if it is missing or not one {@link #encode} writes; the
   *     message never quotes it
   */
  public static KeyPlacement decode(String text) {
    if (text == null || text.length() > MAX_PLACEMENT) {
      throw new IllegalArgumentException("its key placement is missing or too long");
    }
    KeyPlacement placement;
    if (text.startsWith(HEADER)) {
      placement = KeyPlacement.header(name(text, HEADER));
    } else if (text.startsWith(STRUCTURED)) {
      placement = KeyPlacement.structuredHeader(name(text, STRUCTURED));
    } else if (text.startsWith(BODY)) {
      placement = KeyPlacement.bodyField(name(text, BODY));
    } else {
      throw new IllegalArgumentException("its key placement is of no known kind");
    }
    return checkPlacement(placement);
  }

  private static String name(String text, String kind) {
    String name = text.substring(kind.length());
    if (name.isBlank()) {
      throw new IllegalArgumentException("its key placement names no header or field");
    }
    return name;
  }
}
