package dev.saferetry.internal;

import dev.saferetry.codec.QueryParams;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The identity of a request, as an intent records it: what must be equal for a later call to be the
 * same intent. Method, encoded path, query (names sorted, the order of a name's values kept),
 * identity headers (names lower-cased and sorted, values trimmed), content type and the body's
 * canonical bytes.
 *
 * <p>{@link #input} is the one form: its body is the bytes the built-in codecs send (the JSON codec
 * writes object keys sorted at every level, so they are already canonical), so a call encodes its
 * body once for both the wire and its identity. Every field is prefixed by its length, so two
 * different requests never produce the same input. It starts with a version line ({@code
 * saferetry-fingerprint/3}); a recorded fingerprint that is not this form of the call's request is
 * a mismatch. The number is the one development builds reached: it is kept, never reused, so a
 * fingerprint of any earlier form can only ever differ.
 */
public final class Fingerprint {
  private static final byte[] VERSION =
      "saferetry-fingerprint/3\n".getBytes(StandardCharsets.UTF_8);

  private static final HexFormat HEX = HexFormat.of();
  private static final MessageDigest SHA256 = sha256();

  private Fingerprint() {}

  /** Returns the hex SHA-256 of an {@link #input}: what an intent records. */
  public static String sha256Hex(byte[] input) {
    MessageDigest digest;
    try {
      digest = (MessageDigest) SHA256.clone(); // skips getInstance's provider lookup
    } catch (CloneNotSupportedException e) {
      digest = sha256();
    }
    return HEX.formatHex(digest.digest(input));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  /**
   * Returns the bytes that identify the request (version 3).
   *
   * @param encodedPath the path as sent, e.g. {@code /v1/charges/ch_1}
   * @param contentType the body codec's content type
   * @param body the body's canonical bytes, or null for no body
   * @throws IllegalArgumentException if two identity header names differ only in case
   */
  public static byte[] input(
      String method,
      String encodedPath,
      QueryParams query,
      Map<String, String> identityHeaders,
      String contentType,
      byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(160 + (body == null ? 0 : body.length));
    out.writeBytes(VERSION);
    head(out, method, encodedPath, query, identityHeaders);
    field(out, contentType);
    if (body == null) {
      out.write('-'); // never a length: no body is not an empty body
      out.write('\n');
    } else {
      field(out, body);
    }
    return out.toByteArray();
  }

  private static void head(
      ByteArrayOutputStream out,
      String method,
      String encodedPath,
      QueryParams query,
      Map<String, String> identityHeaders) {
    field(out, method);
    field(out, encodedPath);
    field(out, query.isEmpty() ? "" : sorted(query).encode());
    Map<String, String> headers = identityHeaders.isEmpty() ? Map.of() : headers(identityHeaders);
    field(out, Integer.toString(headers.size()));
    headers.forEach(
        (name, value) -> {
          field(out, name);
          field(out, value);
        });
  }

  private static QueryParams sorted(QueryParams query) {
    List<String> names = new ArrayList<>(query.names());
    Collections.sort(names);
    QueryParams sorted = QueryParams.empty();
    for (String name : names) {
      sorted = sorted.andAll(name, query.values(name)); // a list: value order kept
    }
    return sorted;
  }

  private static Map<String, String> headers(Map<String, String> identityHeaders) {
    Map<String, String> sorted = new TreeMap<>();
    identityHeaders.forEach(
        (name, value) -> {
          if (sorted.put(name.toLowerCase(Locale.ROOT), value.strip()) != null) {
            throw new IllegalArgumentException("identity header " + name + " is given twice");
          }
        });
    return sorted;
  }

  private static void field(ByteArrayOutputStream out, String text) {
    field(out, text.getBytes(StandardCharsets.UTF_8));
  }

  private static void field(ByteArrayOutputStream out, byte[] bytes) {
    out.writeBytes((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(bytes);
    out.write('\n');
  }
}
