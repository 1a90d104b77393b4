package dev.saferetry.conformance;

import java.util.List;
import java.util.Locale;

/**
 * A contract the suite grades a server against: the checks made once before any case (that the
 * target answers and every declared hook works), and the cases. A profile selects one with {@code
 * contract=<name>}; the default is the Idempotency-Key server contract, the other is the webhook
 * receiver's. A new contract is one more implementation and one more line in {@link #named}.
 */
interface Contract {
  /** The name a profile selects it by. */
  String name();

  /**
   * Checks, before any case, that the configuration can grade the target.
   *
   * @throws ConfigurationError naming what does not work
   */
  void preflight(Probe probe);

  /** The cases, in execution and report order. */
  List<CaseSpec> cases();

  /** Whether a run without a target grades the reference server started in-process. */
  default boolean gradesEmbeddedReferenceServer() {
    return false;
  }

  /** The contract named {@code name}. */
  static Contract named(String name) {
    String n = name == null ? IdempotencyKeyContract.NAME : name.strip().toLowerCase(Locale.ROOT);
    if (n.equals(IdempotencyKeyContract.NAME)) {
      return IdempotencyKeyContract.INSTANCE;
    }
    if (n.equals(WebhookContract.NAME)) {
      return WebhookContract.INSTANCE;
    }
    throw new IllegalArgumentException(
        "unknown contract: "
            + name
            + " (known: "
            + IdempotencyKeyContract.NAME
            + ", "
            + WebhookContract.NAME
            + ")");
  }
}
