package dev.saferetry.internal.storedrequest;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;

/**
 * The values a client knows to be secret, looked for in a request before it is stored: its API key,
 * the values of its credential headers (the API key's header and names {@link
 * StoredHeaders#isCredential} accepts, with or without a scheme such as {@code Bearer}) and the
 * values of the credential-named query parameters of its base URL. A stored request is read by
 * whoever reads the store and sent by another client with that client's own credentials, so a
 * secret copied into any part of it — a header value, the target's path or query, the body, the
 * intent id — is refused, naming the part and never quoting the value.
 *
 * <p>Values shorter than {@value #MIN_LENGTH} characters are not looked for: they cannot be told
 * from ordinary text (the same rule masks echoed secrets in messages). The body is searched as
 * sent, with form percent-escapes decoded and with JSON string escapes resolved, so that a codec's
 * escaping does not hide a secret.
 *
 * <p>Immutable and thread-safe.
 */
public final class StoredSecrets {
  static final int MIN_LENGTH = 4;

  private static final String WHAT =
      " a secret of this client (its API key, a credential header's value or a credential in its"
          + " base URL's query), which is never stored: the relay's client adds its own";

  /** A client that knows no secret. */
  public static final StoredSecrets NONE = new StoredSecrets(List.of());

  private final List<String> values;

  private StoredSecrets(List<String> values) {
    this.values = values;
  }

  /**
   * The secrets of a client.
   *
   * @param apiKey its API key, or null
   * @param apiKeyHeader the header its API key goes in
   * @param headers its default headers: the values of those carrying a credential are secrets
   * @param baseUrl its base URL: the values of its credential-named query parameters are secrets
   */
  public static StoredSecrets of(
      String apiKey, String apiKeyHeader, Map<String, String> headers, HttpUrl baseUrl) {
    List<String> values = new ArrayList<>();
    add(values, apiKey);
    headers.forEach(
        (name, value) -> {
          if (name.equalsIgnoreCase(apiKeyHeader) || StoredHeaders.isCredential(name)) {
            String v = value.strip();
            add(values, v);
            int space = v.indexOf(' ');
            if (space > 0) {
              add(values, v.substring(space + 1).strip()); // "Bearer <token>"
            }
          }
        });
    for (int i = 0; i < baseUrl.querySize(); i++) {
      if (StoredHeaders.isCredential(baseUrl.queryParameterName(i))) {
        add(values, baseUrl.queryParameterValue(i));
      }
    }
    return values.isEmpty() ? NONE : new StoredSecrets(List.copyOf(values));
  }

  private static void add(List<String> values, String value) {
    if (value != null && value.length() >= MIN_LENGTH && !values.contains(value)) {
      values.add(value);
    }
  }

  /**
   * Checks every part of a request to be stored.
   *
   * @param intentId the intent's id
   * @param headers the headers to store
   * @param url the URL the request would be sent to now; its path and query are looked at
   * @param body the body bytes, or null
   * @throws IllegalArgumentException naming the part that carries a secret, never quoting it
   */
  public void check(String intentId, Map<String, String> headers, HttpUrl url, byte[] body) {
    if (values.isEmpty()) {
      return;
    }
    if (carries(intentId)) {
      throw new IllegalArgumentException("the intent id carries" + WHAT);
    }
    headers.forEach(
        (name, value) -> {
          if (carries(value)) {
            throw new IllegalArgumentException("header " + name + " carries" + WHAT);
          }
        });
    if (carries(url.encodedPath()) || carries(String.join("/", url.pathSegments()))) {
      throw new IllegalArgumentException("the path carries" + WHAT);
    }
    for (int i = 0; i < url.querySize(); i++) {
      String name = url.queryParameterName(i);
      if (carries(name) || carries(url.queryParameterValue(i))) {
        throw new IllegalArgumentException(
            "query parameter " + StoredTargets.printable(name) + " carries" + WHAT);
      }
    }
    if (url.encodedQuery() != null && carries(url.encodedQuery())) {
      throw new IllegalArgumentException("the query carries" + WHAT);
    }
    if (body != null) {
      String text = new String(body, StandardCharsets.UTF_8);
      if (carries(text) || carries(formDecoded(text)) || carries(jsonUnescaped(text))) {
        throw new IllegalArgumentException("the body carries" + WHAT);
      }
    }
  }

  private boolean carries(String text) {
    if (text == null) {
      return false;
    }
    for (String secret : values) {
      if (text.contains(secret)) {
        return true;
      }
    }
    return false;
  }

  // The text with + read as a space and every well-formed percent-escape decoded.
  private static String formDecoded(String text) {
    if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int hi = i + 2 < bytes.length ? Character.digit(bytes[i + 1], 16) : -1;
      int lo = i + 2 < bytes.length ? Character.digit(bytes[i + 2], 16) : -1;
      if (bytes[i] == '%' && hi >= 0 && lo >= 0) {
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        out.write(bytes[i] == '+' ? ' ' : bytes[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  // The text with JSON's string escapes (\/, \", \u0041, ...) resolved.
  private static String jsonUnescaped(String text) {
    if (text.indexOf('\\') < 0) {
      return null;
    }
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\' || i + 1 == text.length()) {
        out.append(c);
        continue;
      }
      char e = text.charAt(++i);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          int code = i + 4 < text.length() ? parseHex(text.substring(i + 1, i + 5)) : -1;
          if (code < 0) {
            out.append('\\').append(e);
          } else {
            out.append((char) code);
            i += 4;
          }
        }
        default -> out.append(e);
      }
    }
    return out.toString();
  }

  private static int parseHex(String four) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(four.charAt(i), 16);
      if (d < 0) {
        return -1;
      }
      v = v * 16 + d;
    }
    return v;
  }

  /** Counts the secrets, never shows them. */
  @Override
  public String toString() {
    return "StoredSecrets[" + values.size() + "]";
  }
}
