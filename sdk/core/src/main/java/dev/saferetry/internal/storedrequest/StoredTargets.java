package dev.saferetry.internal.storedrequest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import okhttp3.HttpUrl;

/**
 * Keeps a stored request's target under its sender's base URL. A target is sent later, with the
 * sender's credentials, to whatever the HTTP client and every server on the way make of it; so it
 * is judged twice: on its own when it is stored, segment by segment, as a server that decodes
 * percent-escapes (once or repeatedly), drops {@code ;} parameters or treats a backslash as a slash
 * would read it; and when it is sent, after {@link HttpUrl}'s own normalisation of the URL the
 * sender will really request, whose path must stay under the base URL's path on the same scheme,
 * host and port. A target is relative to the base URL's query too: it never holds the query of the
 * client that stored it, and the sender puts its own base URL's query first, as on its own calls.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoredTargets {
  /** The longest target accepted, in characters. */
  public static final int MAX_LENGTH = 8192;

  // How many rounds of percent-decoding a segment is read through, as chained servers might.
  private static final int ROUNDS = 8;

  // A base URL with a path, to judge a target by before any sender's base URL is known.
  private static final HttpUrl PROBE = HttpUrl.get("https://stored-target.invalid/a/b/");

  private StoredTargets() {}

  /**
   * Checks a target on its own: relative, visible ASCII, no fragment, and no path segment that
   * reads as {@code .} or {@code ..} or hides a slash, a backslash or a control character under any
   * number of percent-decodings or behind a {@code ;} parameter, and no query parameter named as a
   * credential.
   *
   * @throws IllegalArgumentException naming what is wrong (a query parameter by its name), never
   *     quoting the target
   */
  public static void check(String target) {
    resolve(PROBE, target);
  }

  /**
   * Returns the URL a sender with base URL {@code base} requests for {@code target}, after checking
   * the target as {@link #check} does and the URL after {@link HttpUrl}'s normalisation: same
   * scheme, host and port as the base, its path the base's path followed by exactly the target's
   * segments, its query the base URL's own query followed by the target's.
   *
   * @throws IllegalArgumentException naming what is wrong, never quoting the target
   */
  public static HttpUrl resolve(HttpUrl base, String target) {
    String path = checkText(target);
    String[] segments = path.split("/", -1);
    for (String segment : segments) {
      checkSegment(segment);
    }
    checkQuery(target);
    HttpUrl root = base.newBuilder().query(null).fragment(null).build();
    String prefix = root.toString().endsWith("/") ? root.toString() : root.toString() + "/";
    HttpUrl url = HttpUrl.parse(prefix + target);
    if (url == null
        || !url.scheme().equals(root.scheme())
        || !url.host().equals(root.host())
        || url.port() != root.port()) {
      throw new IllegalArgumentException("target must stay on the base URL's host");
    }
    List<String> basePath = root.encodedPathSegments();
    int kept = basePath.get(basePath.size() - 1).isEmpty() ? basePath.size() - 1 : basePath.size();
    List<String> sent = url.encodedPathSegments();
    if (sent.size() != kept + segments.length
        || !sent.subList(0, kept).equals(basePath.subList(0, kept))) {
      throw new IllegalArgumentException("target must stay under the base URL's path");
    }
    for (String segment : sent.subList(kept, sent.size())) {
      checkSegment(segment);
    }
    String own = base.encodedQuery();
    if (own == null || own.isEmpty()) {
      return url;
    }
    // The sender's base URL's query goes first, as on every call it makes itself; a stored target
    // never holds another client's (SafeRetryClient.prepare leaves it out).
    String query = url.encodedQuery() == null ? own : own + "&" + url.encodedQuery();
    return url.newBuilder().encodedQuery(query).build();
  }

  // Refuses a query parameter whose name, decoded, is one the SDK treats as a credential's
  // (StoredHeaders.isCredential): a stored target carries none, as stored headers carry none.
  private static void checkQuery(String target) {
    int at = target.indexOf('?');
    if (at < 0) {
      return;
    }
    for (String pair : target.substring(at + 1).split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String decoded = decode(name.replace('+', ' '));
      if (StoredHeaders.isCredential(decoded == null ? name : decoded)) {
        throw new IllegalArgumentException(
            "query parameter "
                + name
                + " carries a credential, which is never stored: the relay's client adds its own");
      }
    }
  }

  /** Text safe to name in a message: non-printable-ASCII characters as {@code ?}, at most 64. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && i < 64; i++) {
      char c = text.charAt(i);
      out.append(c >= 0x20 && c < 0x7F ? c : '?');
    }
    return text.length() > 64 ? out.append("...").toString() : out.toString();
  }

  // Checks the characters and the shape; returns the path part (before any query).
  private static String checkText(String target) {
    if (target.isEmpty() || target.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("target must be 1.." + MAX_LENGTH + " characters");
    }
    for (int i = 0; i < target.length(); i++) {
      char c = target.charAt(i);
      if (c <= 0x20 || c >= 0x7F || c == '\\' || c == '#') {
        throw new IllegalArgumentException(
            "target must be URL-encoded visible ASCII without a backslash or fragment (found code"
                + " point "
                + (int) c
                + ")");
      }
    }
    int query = target.indexOf('?');
    String path = query < 0 ? target : target.substring(0, query);
    if (path.startsWith("/") || path.split("/", 2)[0].contains(":")) {
      throw new IllegalArgumentException("target must be relative to the base URL");
    }
    return path;
  }

  // Refuses a segment that any server on the way could read as a step up or sideways: only dots
  // (before any ; parameter, spaces ignored), or a slash, backslash or control character, after
  // each of up to ROUNDS rounds of percent-decoding. The segment as stored must be well-formed; a
  // later round that is not simply ends the decoding (its % is text).
  private static void checkSegment(String segment) {
    String text = segment;
    for (int round = 0; ; round++) {
      checkDecoded(text, round);
      if (text.indexOf('%') < 0) {
        return;
      }
      String next = decode(text);
      if (next == null) {
        if (round == 0) {
          throw new IllegalArgumentException("target has a malformed percent-escape");
        }
        return;
      }
      if (round == ROUNDS) {
        throw new IllegalArgumentException("target is percent-encoded too many times over");
      }
      text = next;
    }
  }

  private static void checkDecoded(String text, int round) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7F || (round > 0 && (c == '/' || c == '\\'))) {
        throw new IllegalArgumentException(
            "target has an encoded slash, backslash or control character in a path segment");
      }
    }
    int semicolon = text.indexOf(';');
    String name = (semicolon < 0 ? text : text.substring(0, semicolon)).strip();
    if (!name.isEmpty() && name.chars().allMatch(c -> c == '.')) {
      throw new IllegalArgumentException(
          "target must not contain . or .. segments, encoded or not");
    }
  }

  // One round of percent-decoding as UTF-8, or null if an escape is malformed (its % is then text).
  // Throws IllegalArgumentException if the decoded bytes are not UTF-8: an overlong %C0%AE is a dot
  // to some decoders
  private static String decode(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '%') {
        int end = i + Character.charCount(text.codePointAt(i));
        out.writeBytes(text.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end - 1;
        continue;
      }
      int hi = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
      int lo = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
      if (hi < 0 || lo < 0) {
        return null;
      }
      out.write(hi * 16 + lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("target has a percent-escape that is not UTF-8");
    }
  }
}
