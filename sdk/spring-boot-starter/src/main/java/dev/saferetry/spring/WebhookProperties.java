package dev.saferetry.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One webhook source's properties, {@code saferetry.webhooks.<name>.*}: which provider signs its
 * deliveries and with what secrets. The secrets are masked in Actuator and never in {@link
 * #toString()}.
 *
 * <p>Mutable while Spring binds it; read-only by convention afterwards.
 */
public class WebhookProperties {
  /** The signature scheme: stripe, github or standard (Standard Webhooks, e.g. Svix). */
  private Provider provider;

  /** The signing secrets; more than one while a secret is rotated. */
  private List<String> secrets = new ArrayList<>();

  /** How old a signed timestamp may be (stripe and standard); default 5 minutes. */
  private Duration tolerance;

  /** Creates the defaults. */
  public WebhookProperties() {}

  /** The signature schemes. */
  public enum Provider {
    /** Stripe's {@code Stripe-Signature}. */
    STRIPE,
    /** GitHub's {@code X-Hub-Signature-256}. */
    GITHUB,
    /**
     * Standard Webhooks ({@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature}).
     */
    STANDARD
  }

  /** {@return the provider} */
  public Provider getProvider() {
    return provider;
  }

  /**
   * Sets the provider.
   *
   * @param provider the provider
   */
  public void setProvider(Provider provider) {
    this.provider = provider;
  }

  /** {@return the secrets} */
  public List<String> getSecrets() {
    return secrets;
  }

  /**
   * Sets the secrets.
   *
   * @param secrets the secrets
   */
  public void setSecrets(List<String> secrets) {
    this.secrets = secrets;
  }

  /** {@return the tolerance, or null for the default} */
  public Duration getTolerance() {
    return tolerance;
  }

  /**
   * Sets the tolerance.
   *
   * @param tolerance the tolerance
   */
  public void setTolerance(Duration tolerance) {
    this.tolerance = tolerance;
  }

  @Override
  public String toString() {
    return "WebhookProperties[provider=" + provider + ", secrets=***]";
  }
}
