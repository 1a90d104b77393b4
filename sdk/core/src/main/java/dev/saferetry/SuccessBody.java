package dev.saferetry;

import dev.saferetry.codec.TypeRef;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.internal.ResponseReader;
import java.io.IOException;

/**
 * The body of a 2xx answer turned into the response type, and the id of the resource it names.
 *
 * @param value the parsed body, or null for an empty one or {@code Void}
 * @param resourceId the body's {@code id}, or null when not asked for or absent
 */
record SuccessBody<R>(R value, String resourceId) {

  /**
   * Reads a 2xx answer.
   *
   * @param wantId whether the resource id is needed (for an intent's completion record)
   * @throws SafeRetryException a {@code ResponseBodyException} (outcome SUCCEEDED) when the body is
   *     larger than the limit or not of the response type; the message never holds the body
   */
  static <R> SuccessBody<R> read(
      AttemptResult out,
      String existingResourceId,
      ClientConfig config,
      ResponseReader reader,
      TypeRef<R> type,
      boolean wantId,
      Endings.Trail trail) {
    int status = out.status();
    if (existingResourceId != null) {
      // The provider's conflict names the resource: the body is an error, not the response type.
      return new SuccessBody<>(null, existingResourceId);
    }
    if (out.oversized()) {
      throw Endings.unreadable(
          Reason.BODY_TOO_LARGE,
          "the body exceeds the limit of "
              + Transport.readLimit(config.maxResponseBytes())
              + " bytes",
          status,
          trail,
          null);
    }
    byte[] bytes = out.body();
    if (bytes == null || bytes.length == 0 || type.rawType() == Void.class) {
      return new SuccessBody<>(null, null);
    }
    try {
      R value = reader.read(bytes, type);
      return new SuccessBody<>(
          value, wantId ? Json.resourceId(config.mapper(), value, bytes) : null);
    } catch (IOException | IllegalArgumentException e) {
      // The cause is left out: Jackson's messages quote the body.
      throw Endings.unreadable(
          Reason.BODY_UNREADABLE,
          "the body is not valid JSON for "
              + type.rawType().getSimpleName()
              + " ("
              + e.getClass().getSimpleName()
              + ")",
          status,
          trail,
          null);
    }
  }
}
