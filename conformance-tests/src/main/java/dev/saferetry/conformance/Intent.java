package dev.saferetry.conformance;

/**
 * One logical operation of a case: a fresh key and a fresh payload, sent as tenant 1 to the create
 * endpoint. Folds the prologue every case shares. Thread-safe (immutable; the probe is).
 */
final class Intent {
  final Probe t;
  final String key;
  final Payload payload;

  Intent(Probe t, String key, Payload payload) {
    this.t = t;
    this.key = key;
    this.payload = payload;
  }

  /** Sends this operation (a first attempt or a retry). */
  Answer send(String label) {
    return t.create(label, key, payload.json());
  }

  /** Sends a retry of this operation after an earlier attempt ended: see {@link Probe#retry}. */
  Answer replay(String label) {
    return t.retry(label, "POST", t.config("create.path"), payload.json(), key, t.tenant1());
  }

  /**
   * Sends the first attempt and requires it to create a resource with an id; otherwise the case
   * proves nothing and ends as NOT RUN.
   */
  Answer created(String label) {
    Answer a = send(label);
    Check.runOnlyIf(
        a.ok() && t.id(a) != null,
        label
            + " was not accepted with a resource id at "
            + t.config("id.pointer")
            + " (got "
            + a.brief()
            + "), so the case proves nothing");
    return a;
  }

  /** Sends the same key with another body. */
  Answer sendWith(String label, Payload other) {
    return t.create(label, key, other.json());
  }
}
