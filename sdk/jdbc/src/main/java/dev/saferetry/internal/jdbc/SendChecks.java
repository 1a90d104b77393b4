package dev.saferetry.internal.jdbc;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.jdbc.StoredRequest;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import okhttp3.HttpUrl;

/**
 * What a relay checks before it sends a stored request through one of its clients: the request must
 * go out exactly as recorded, under that client's base URL and with that client's credentials. Made
 * once per client; immutable and thread-safe.
 */
public final class SendChecks {
  private final HttpUrl base;
  private final Set<String> own;

  /**
   * Checks for a client with base URL {@code base} that sets the headers {@code own} itself (its
   * credential header, its per-attempt headers), compared ignoring case.
   */
  public SendChecks(HttpUrl base, Set<String> own) {
    this.base = base;
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.addAll(own);
    this.own = Collections.unmodifiableSet(names);
  }

  /**
   * Returns the URL to send {@code request} to for {@code record}, or refuses it: its target leaves
   * the base URL after normalisation, a stored header or the key's header is one the client sets
   * itself (it would replace the client's credential, or the key would be replaced), or a body that
   * should carry the key does not carry exactly the record's key.
   *
   * @throws IllegalArgumentException saying why, naming a header but never quoting a value
   */
  public HttpUrl check(IntentRecord record, StoredRequest request) {
    for (String name : request.headers().keySet()) {
      if (own.contains(name)) {
        throw new IllegalArgumentException(
            "stored header " + name + " would replace one the relay's client sets itself");
      }
    }
    KeyPlacement placement = request.keyPlacement();
    if (placement.inBody()) {
      BodyKeys.check(placement.name(), record.key().value(), request.contentType(), request.body());
    } else if (own.contains(placement.name())) {
      throw new IllegalArgumentException(
          "the key's header " + placement.name() + " is one the relay's client sets itself");
    }
    return StoredTargets.resolve(base, request.target());
  }
}
