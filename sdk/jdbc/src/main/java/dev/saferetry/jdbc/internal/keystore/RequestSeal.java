package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.StoredRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The fingerprint of a stored request, written with it when it is enqueued and computed again over
 * the request read back before it is handed to a sender: everything that decides what is sent and
 * under which key — the intent (tenant, operation, id, key, and its request fingerprint), the
 * method, the target, where the key goes, every header in order with its exact name and value, the
 * content type and the body bytes. A row changed in the table after it was enqueued no longer
 * matches, and is held instead of sent.
 *
 * <p>This is not the intent's fingerprint (which names what makes two calls the same intent and is
 * computed from the call, e.g. before a key is added to a body): it covers exactly the bytes and
 * headers a sender will send, whatever the codec. Like it, it is unkeyed: it detects a changed row,
 * not a writer who also rewrites this column.
 *
 * <p>Stateless and thread-safe.
 */
public final class RequestSeal {
  /** Its length in the table: a hex SHA-256. */
  public static final int LENGTH = 64;

  private static final byte[] VERSION =
      "saferetry-stored-request/1\n".getBytes(StandardCharsets.UTF_8);

  private RequestSeal() {}

  /** Returns the fingerprint of {@code request} stored for {@code record}. */
  public static String of(IntentRecord record, StoredRequest request) {
    return of(
        record,
        request.method(),
        request.target(),
        StoredPlacement.encode(request.keyPlacement()),
        request.headers(),
        request.contentType(),
        request.body());
  }

  /**
   * Returns the fingerprint of a stored request given as the table holds it, {@code placement} as
   * {@link StoredPlacement#encode} writes it.
   */
  public static String of(
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
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(out.toByteArray()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
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
