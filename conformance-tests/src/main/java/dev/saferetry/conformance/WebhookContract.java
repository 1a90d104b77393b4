package dev.saferetry.conformance;

import java.util.List;
import java.util.stream.Stream;

/**
 * The receiving half: a webhook receiver given signed deliveries — duplicate, concurrent, out of
 * order, after a failure, tampered, forged and stale — must apply each genuine event exactly once,
 * in order, and refuse the rest. Selected with {@code contract=webhook-receiver} (the built-in
 * {@code webhook} profile sets it). Immutable and thread-safe.
 */
final class WebhookContract implements Contract {
  static final String NAME = "webhook-receiver";
  static final WebhookContract INSTANCE = new WebhookContract();
  private static final List<CaseSpec> CASES =
      Stream.of(
              DeliveryCases.cases(),
              OrderCases.cases(),
              SignatureCases.cases(),
              List.of(DeliveryCases.answersFast()))
          .flatMap(List::stream)
          .toList();

  private WebhookContract() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void preflight(Probe probe) {
    WebhookPreflight.run(probe);
  }

  @Override
  public List<CaseSpec> cases() {
    return CASES;
  }
}
