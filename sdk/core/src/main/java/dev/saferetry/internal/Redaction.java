package dev.saferetry.internal;

import dev.saferetry.internal.storedrequest.StoredHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import okhttp3.HttpUrl;

/**
 * Makes text safe to print in exception messages, logs and {@code toString()}: secrets masked,
 * control and non-ASCII characters replaced, length capped.
 *
 * <p>What counts as a secret: the client's API key and the credentials in a call's own
 * credential-like headers ({@code Authorization}, cookies, names containing "key", "token",
 * "secret", "password" or "signature"). A server that echoes one of them — whole, or any run of
 * {@value #GRAM} or more of its characters — in anything the SDK hands out of an answer (an error
 * type, code, message or body, a request id, the headers and the kept body of a {@code
 * ResponseView}) has that run replaced by {@value #MASK}. Idempotency keys are not secrets: they
 * are printed on purpose, so that a caller can retry the same intent.
 *
 * <p>Immutable and thread-safe.
 */
public final class Redaction {
  /** The most characters of server-supplied text that a message or log line shows. */
  public static final int MAX_PRINTED = 128;

  static final String MASK = "[redacted]";
  static final int GRAM = 8;
  private static final int MIN_SECRET = 4;

  /** No secrets: only the character and length rules apply. */
  public static final Redaction NONE = new Redaction(List.of());

  private final List<String> secrets;
  private final Set<String> grams;

  // The sorted hashes of grams, to find a window that may be one without a string.
  private final int[] gramHashes;

  // The secrets' UTF-8 bytes, one char per byte (ISO-8859-1), to mask raw bytes the same way.
  private final List<String> byteSecrets;

  private final Set<String> byteGrams;

  private final int[] byteGramHashes;

  private Redaction(List<String> secrets) {
    this.secrets = secrets;
    this.grams = grams(secrets);
    List<String> bytes = new ArrayList<>(secrets.size());
    for (String s : secrets) {
      bytes.add(new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }
    this.byteSecrets = bytes.equals(secrets) ? secrets : List.copyOf(bytes);
    this.byteGrams = bytes.equals(secrets) ? grams : grams(byteSecrets);
    this.gramHashes = hashes(grams);
    this.byteGramHashes = hashes(byteGrams);
  }

  private static Set<String> grams(List<String> secrets) {
    Set<String> grams = new HashSet<>();
    for (String s : secrets) {
      for (int i = 0; i + GRAM <= s.length(); i++) {
        grams.add(s.substring(i, i + GRAM));
      }
    }
    return grams;
  }

  /** Returns a redaction of the client's API key (which may be null). */
  public static Redaction ofApiKey(String apiKey) {
    return apiKey == null || apiKey.length() < MIN_SECRET ? NONE : new Redaction(List.of(apiKey));
  }

  /** Returns this redaction plus the credentials in a call's own headers (itself if none). */
  public Redaction withHeaders(Map<String, String> headers) {
    List<String> more = null;
    for (Map.Entry<String, String> h : headers.entrySet()) {
      if (isCredentialHeader(h.getKey())) {
        String v = h.getValue().trim();
        int space = v.indexOf(' ');
        String credential = space < 0 ? v : v.substring(space + 1).trim(); // "Bearer <token>"
        if (credential.length() >= MIN_SECRET) {
          more = more == null ? new ArrayList<>(secrets) : more;
          more.add(credential);
        }
      }
    }
    return more == null ? this : new Redaction(List.copyOf(more));
  }

  /** Returns this redaction plus one more secret (a call's own API key). */
  public Redaction withSecret(String secret) {
    if (secret == null || secret.length() < MIN_SECRET || secrets.contains(secret)) {
      return this;
    }
    List<String> more = new ArrayList<>(secrets);
    more.add(secret);
    return new Redaction(List.copyOf(more));
  }

  /** Returns whether a header name looks like it carries a credential. */
  public static boolean isCredentialHeader(String name) {
    return StoredHeaders.isCredential(name);
  }

  /** Returns the text with every echoed secret replaced by {@value #MASK}; null stays null. */
  public String mask(String text) {
    return mask(text, secrets, grams, gramHashes);
  }

  /**
   * Returns raw bytes (a body) with every echoed secret replaced by the bytes of {@value #MASK}, by
   * the same rule as {@link #mask(String)}; every other byte is kept as it is, and bytes without an
   * echo are returned unchanged (the same array). Null stays null.
   */
  public byte[] mask(byte[] bytes) {
    if (bytes == null || secrets.isEmpty()) {
      return bytes;
    }
    String raw = new String(bytes, StandardCharsets.ISO_8859_1);
    String masked = mask(raw, byteSecrets, byteGrams, byteGramHashes);
    return masked == raw ? bytes : masked.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * Returns headers with every echoed secret masked in names and values, by the rule of {@link
   * #mask(String)}; names that mask alike share one entry. Names are matched ignoring case.
   */
  public Map<String, List<String>> mask(Map<String, List<String>> headers) {
    Map<String, List<String>> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach(
        (name, values) -> {
          List<String> into = out.computeIfAbsent(mask(name), k -> new ArrayList<>(values.size()));
          values.forEach(v -> into.add(mask(v)));
        });
    return out;
  }

  private static String mask(String text, List<String> secrets, Set<String> grams, int[] hashes) {
    if (text == null || secrets.isEmpty() || text.length() < MIN_SECRET) {
      return text;
    }
    boolean[] hit = null;
    for (String s : secrets) {
      for (int i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + 1)) {
        hit = mark(hit, text.length(), i, s.length());
      }
    }
    if (!grams.isEmpty() && text.length() >= GRAM) {
      hit = markGrams(text, grams, hashes, hit);
    }
    if (hit == null) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      if (!hit[i]) {
        out.append(text.charAt(i));
      } else if (i == 0 || !hit[i - 1]) {
        out.append(MASK);
      }
    }
    return out.toString();
  }

  // Marks every window of GRAM characters of text that is one of grams. A window's String.hashCode
  // is rolled along the text, so that only a window whose hash is a gram's is cut out and looked
  // up: no string per window.
  private static boolean[] markGrams(String text, Set<String> grams, int[] hashes, boolean[] hit) {
    int h = 0;
    for (int i = 0; i < GRAM; i++) {
      h = 31 * h + text.charAt(i);
    }
    for (int i = 0; ; i++) {
      if (Arrays.binarySearch(hashes, h) >= 0 && grams.contains(text.substring(i, i + GRAM))) {
        hit = mark(hit, text.length(), i, GRAM);
      }
      if (i + GRAM >= text.length()) {
        return hit;
      }
      h = 31 * (h - text.charAt(i) * POWER) + text.charAt(i + GRAM);
    }
  }

  // 31 to the power - 1: the weight of a window's first character in its hash.
  private static final int POWER = power();

  private static int power() {
    int p = 1;
    for (int i = 1; i < GRAM; i++) {
      p *= 31;
    }
    return p;
  }

  // The sorted hashes of grams.
  private static int[] hashes(Set<String> grams) {
    return grams.stream().mapToInt(String::hashCode).sorted().toArray();
  }

  private static boolean[] mark(boolean[] hit, int size, int from, int length) {
    boolean[] h = hit == null ? new boolean[size] : hit;
    for (int i = from; i < from + length; i++) {
      h[i] = true;
    }
    return h;
  }

  /** Returns server-supplied text ready to print: secrets masked, then {@link #printable}. */
  public String printableMasked(String text) {
    if (text == null) {
      return null;
    }
    // Bound the work; a secret cut here lies far beyond what printable() keeps anyway.
    String head = text.length() > 4 * MAX_PRINTED ? text.substring(0, 4 * MAX_PRINTED) : text;
    return printable(mask(head));
  }

  /**
   * Returns text safe for one log line: every character outside printable ASCII (CR, LF, escapes,
   * bidi controls, ...) becomes {@code ?}, and at most {@value #MAX_PRINTED} characters are kept.
   */
  public static String printable(String text) {
    if (text == null) {
      return null;
    }
    int n = Math.min(text.length(), MAX_PRINTED);
    StringBuilder out = new StringBuilder(n + 3);
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      out.append(c >= 0x20 && c <= 0x7E ? c : '?');
    }
    return text.length() > MAX_PRINTED ? out.append("...").toString() : out.toString();
  }

  /** Returns a URL without user info, query or fragment: what may be printed of a base URL. */
  public static String url(HttpUrl url) {
    if (url == null) {
      return "null";
    }
    String shown =
        url.newBuilder().username("").password("").query(null).fragment(null).build().toString();
    return url.encodedQuery() == null ? shown : shown + "?" + MASK;
  }
}
