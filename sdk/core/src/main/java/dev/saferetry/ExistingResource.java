package dev.saferetry;

import dev.saferetry.internal.ServerIds;
import dev.saferetry.internal.codec.ErrorBodies;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider that answers a repeated creation not with a replay but with a conflict naming the
 * resource the first request created, as GoCardless does: {@code 409} with {@code
 * error.errors[].reason = "idempotent_creation_conflict"} and the id in {@code
 * links.conflicting_resource_id}. For such a provider the conflict is a success: the intent's
 * effect exists, and its resource can be fetched by id, as GoCardless's own client libraries do.
 *
 * <p>The id is server text, so it counts only when it is a usable id: 1 to 255 visible ASCII
 * characters, the rule of every id the SDK takes from a server. A conflict whose id is anything
 * else (CR/LF, NUL, non-ASCII, thousands of characters) or that names none is not read as this
 * success: the call ends at once {@code UNKNOWN} ({@code EXISTING_RESOURCE_ID_UNUSABLE}, the intent
 * left pending, since another attempt would get the same answer), never as a success carrying an id
 * that is not one.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param conflict how the conflict is recognised; its {@code equals} must not be null
 * @param idField the pointer to the resource id, relative to the object {@code conflict} selected
 */
record ExistingResource(ErrorMatch conflict, String idField) {

  /**
   * Validates the description.
   *
   * @param conflict how the conflict is recognised; its {@code equals} must not be null
   * @param idField the pointer to the resource id, relative to the object {@code conflict} selected
   */
  public ExistingResource {
    Objects.requireNonNull(conflict, "conflict");
    Objects.requireNonNull(idField, "idField");
    if (conflict.equals() == null) {
      throw new IllegalArgumentException("the conflict must be recognised by a text, not a status");
    }
    ErrorBodies.checkPointer(idField, false, "idField");
  }

  /**
   * {@return the id of the existing resource if this answer is the conflict and names a usable id;
   * empty otherwise}
   *
   * @param status the status
   * @param body the body
   */
  public Optional<String> resourceId(int status, String body) {
    if (conflict.status() != 0 && conflict.status() != status) {
      return Optional.empty();
    }
    return ErrorBodies.find(body, conflict.select(), conflict.field(), conflict.equals(), idField)
        .filter(ServerIds::isUsable);
  }
}
