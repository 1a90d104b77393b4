package dev.saferetry;

/** What an HTTP status proves about the request's effect. Stateless. */
final class StatusProof {
  private StatusProof() {}

  /**
   * Whether a non-2xx status proves that the request had no effect: a 4xx other than 408, 409 and
   * 429. A redirect, a 408, 409 or 429 and any 5xx prove nothing.
   */
  static boolean provesNoEffect(int status) {
    return status >= 400 && status < 500 && status != 408 && status != 409 && status != 429;
  }
}
