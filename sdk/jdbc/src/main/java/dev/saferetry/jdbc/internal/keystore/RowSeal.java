package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.StoredRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keyed proof that an outbox row is the one the SDK wrote: an HMAC-SHA256, under a key the
 * database does not hold, over everything that decides what a relay sends, under which key and
 * whether it may still send it — the intent (tenant, operation, id, key, request fingerprint,
 * creation and expiry times), the method, the target, where the key goes, every header in order
 * with its exact name and value, the content type and the body bytes. Written with the row, checked
 * before a relay hands the row to a sender. A writer with access to the table but not to the key
 * can change a row, but cannot make a changed row verify: it is held, never sent.
 *
 * <p>Not the intent's {@code Fingerprint} (what makes two calls the same intent, computed from the
 * call): this covers the stored row as a sender will use it.
 *
 * <p>The seal column holds {@code v2.<key id>.<MAC, base64url>}, at most {@value #LENGTH}
 * characters, so that a key can rotate: rows are sealed with the current key, and a row carrying
 * another key id is verified with that key if it is still configured. A row sealed by an older
 * SafeRetry with the unkeyed SHA-256 (64 hex digits) proves nothing and is held.
 *
 * <p>Immutable and thread-safe; secrets are copied in and never shown.
 */
public final class RowSeal {
  /** The seal column's length. */
  public static final int LENGTH = 64;

  /** A key id: 1 to 16 letters, digits, {@code _} or {@code -}. */
  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,16}");

  private static final Pattern UNKEYED = Pattern.compile("[0-9a-f]{64}");
  private static final int MIN_SECRET = 32;
  private static final String PREFIX = "v2.";
  private static final String ALGORITHM = "HmacSHA256";
  private static final byte[] VERSION = "saferetry-row-seal/2\n".getBytes(StandardCharsets.UTF_8);

  private static final RowSeal NONE = new RowSeal(null, Map.of());

  private final String current;
  private final Map<String, SecretKeySpec> keys;

  private RowSeal(String current, Map<String, SecretKeySpec> keys) {
    this.current = current;
    this.keys = keys;
  }

  /** {@return a seal without keys: it seals nothing and verifies nothing} */
  public static RowSeal none() {
    return NONE;
  }

  /**
   * {@return a copy that also knows the key {@code keyId}; with {@code current}, new rows are
   * sealed with it}
   *
   * @throws IllegalArgumentException if the key id is not 1 to 16 letters, digits, {@code _} or
   *     {@code -}, the secret is shorter than 32 bytes, the id is known with another secret, or a
   *     second current key is given
   */
  public RowSeal withKey(String keyId, byte[] secret, boolean current) {
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(secret, "secret");
    if (!KEY_ID.matcher(keyId).matches()) {
      throw new IllegalArgumentException(
          "keyId must be 1 to 16 letters, digits, _ or -, was " + quoted(keyId));
    }
    if (secret.length < MIN_SECRET) {
      throw new IllegalArgumentException(
          "the secret of seal key " + keyId + " must be at least 32 bytes");
    }
    SecretKeySpec key = new SecretKeySpec(secret, ALGORITHM); // copies the bytes
    SecretKeySpec known = keys.get(keyId);
    if (known != null && !MessageDigest.isEqual(known.getEncoded(), secret)) {
      throw new IllegalArgumentException("seal key " + keyId + " is given twice, with two secrets");
    }
    if (current && this.current != null && !this.current.equals(keyId)) {
      throw new IllegalArgumentException(
          "two current seal keys (" + this.current + ", " + keyId + "): one seals new rows");
    }
    Map<String, SecretKeySpec> all = new LinkedHashMap<>(keys);
    all.put(keyId, key);
    return new RowSeal(current ? keyId : this.current, Map.copyOf(all));
  }

  /** {@return whether new rows can be sealed: a current key is set} */
  public boolean canSeal() {
    return current != null;
  }

  /**
   * {@return the seal of {@code request} stored for {@code record}, with the current key}
   *
   * @throws IllegalStateException if no current key is configured
   */
  public String seal(IntentRecord record, StoredRequest request) {
    if (current == null) {
      throw new IllegalStateException(
          "no outbox seal key is configured (JdbcKeyStoreBuilder.outboxSealKey): a row cannot be"
              + " sealed, so nothing is enqueued");
    }
    return PREFIX + current + "." + mac(keys.get(current), record, request);
  }

  /**
   * {@return the seal, with the current key, of a stored request given as the table holds it,
   * {@code placement} as {@link StoredPlacement#encode} writes it}
   *
   * @throws IllegalStateException if no current key is configured
   */
  public String seal(
      IntentRecord record,
      String method,
      String target,
      String placement,
      Map<String, String> headers,
      String contentType,
      byte[] body) {
    if (current == null) {
      throw new IllegalStateException("no outbox seal key is configured");
    }
    return PREFIX
        + current
        + "."
        + mac(
            keys.get(current),
            covered(record, method, target, placement, headers, contentType, body));
  }

  /**
   * {@return why {@code stored}, the seal read back with the row, does not prove that {@code
   * request} is the one sealed for {@code record}, or null when it does} The reason names the key
   * id when it is one, never a secret or a MAC.
   */
  public String problem(IntentRecord record, StoredRequest request, String stored) {
    if (stored == null) {
      return "it carries no seal";
    }
    if (UNKEYED.matcher(stored).matches()) {
      return "it carries an unkeyed seal, written before rows were sealed with a key: it proves"
          + " nothing, so an operator checks the row and enqueues the call again";
    }
    int dot = stored.indexOf('.', PREFIX.length());
    if (!stored.startsWith(PREFIX) || dot < 0) {
      return "its seal is not one SafeRetry writes";
    }
    String keyId = stored.substring(PREFIX.length(), dot);
    if (!KEY_ID.matcher(keyId).matches()) {
      return "its seal names no valid key id";
    }
    SecretKeySpec key = keys.get(keyId);
    if (key == null) {
      return "it is sealed with key id "
          + keyId
          + ", which this store is not configured with (outboxSealKey, outboxRetiredSealKey)";
    }
    byte[] want = mac(key, record, request).getBytes(StandardCharsets.US_ASCII);
    byte[] got = stored.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(want, got)
        ? null
        : "its stored request does not match the seal stored with it (key id " + keyId + ")";
  }

  @Override
  public String toString() {
    return "RowSeal[current "
        + current
        + ", keys "
        + keys.keySet().stream().sorted().toList()
        + "]";
  }

  private static String quoted(String keyId) {
    return keyId.length() > 40 ? "a " + keyId.length() + "-character text" : "'" + keyId + "'";
  }

  private static String mac(SecretKeySpec key, IntentRecord record, StoredRequest request) {
    return mac(
        key,
        covered(
            record,
            request.method(),
            request.target(),
            StoredPlacement.encode(request.keyPlacement()),
            request.headers(),
            request.contentType(),
            request.body()));
  }

  private static String mac(SecretKeySpec key, byte[] data) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(data));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform has " + ALGORITHM, e);
    } finally {
      Arrays.fill(data, (byte) 0);
    }
  }

  /** The sealed bytes: each field length-prefixed, so no two rows share them. */
  static byte[] covered(
      IntentRecord record,
      String method,
      String target,
      String placement,
      Map<String, String> headers,
      String contentType,
      byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + (body == null ? 0 : body.length));
    out.writeBytes(VERSION);
    field(out, record.scope().tenant());
    field(out, record.scope().operation());
    field(out, record.intentId());
    field(out, record.key().value());
    field(out, record.fingerprint());
    field(out, record.createdAt().toString());
    field(out, record.expiresAt().toString());
    field(out, method);
    field(out, target);
    field(out, placement);
    field(out, Integer.toString(headers.size()));
    headers.forEach(
        (name, value) -> {
          field(out, name);
          field(out, value);
        });
    optional(out, contentType == null ? null : bytes(contentType));
    optional(out, body);
    return out.toByteArray();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void field(ByteArrayOutputStream out, String text) {
    optional(out, bytes(text));
  }

  /** A length-prefixed field, or {@code -} (never a length) for none. */
  private static void optional(ByteArrayOutputStream out, byte[] value) {
    if (value == null) {
      out.write('-');
    } else {
      out.writeBytes((value.length + ":").getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(value);
    }
    out.write('\n');
  }
}
