package dev.saferetry.spring;

import dev.saferetry.webhook.GitHubWebhookVerifier;
import dev.saferetry.webhook.StandardWebhookVerifier;
import dev.saferetry.webhook.StripeWebhookVerifier;
import dev.saferetry.webhook.WebhookVerifier;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the verifiers {@code saferetry.webhooks.<name>.*} configures. */
final class Webhooks {
  private Webhooks() {}

  static Map<String, WebhookVerifier> verifiers(Map<String, WebhookProperties> sources) {
    Map<String, WebhookVerifier> out = new LinkedHashMap<>();
    sources.forEach((name, p) -> out.put(name, verifier(name, p)));
    return out;
  }

  private static WebhookVerifier verifier(String name, WebhookProperties p) {
    String where = "saferetry.webhooks." + name;
    if (p.getProvider() == null) {
      throw new IllegalArgumentException(
          where + ".provider is required: stripe, github or standard");
    }
    if (p.getSecrets().isEmpty()) {
      throw new IllegalArgumentException(where + ".secrets needs at least one secret");
    }
    return switch (p.getProvider()) {
      case STRIPE -> {
        StripeWebhookVerifier v = StripeWebhookVerifier.of(p.getSecrets());
        yield p.getTolerance() == null ? v : v.withTolerance(p.getTolerance());
      }
      case STANDARD -> {
        StandardWebhookVerifier v = StandardWebhookVerifier.of(p.getSecrets());
        yield p.getTolerance() == null ? v : v.withTolerance(p.getTolerance());
      }
      case GITHUB -> GitHubWebhookVerifier.of(p.getSecrets());
    };
  }
}
