package dev.saferetry.provider;

import dev.saferetry.SafeRetryClientBuilder;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One payment provider's idempotency rules, as its published documentation states them, applied to
 * a client builder through the builder's own setters: where the key goes, how bodies are encoded,
 * how the provider says "this is a replay", "this key was used with another payload", "a request
 * with this key is still running", which headers carry request ids, how long keys are kept. Each
 * built-in preset lists the pages it was built from; what a provider's documentation does not say
 * is left at "none" rather than guessed.
 *
 * <p>A preset is only a starting point: every value it sets is a builder setting, and a setting
 * made on the builder after {@link SafeRetryClientBuilder#preset} overrides it.
 *
 * <pre>{@code
 * SafeRetryClient stripe = SafeRetryClient.builder()
 *     .baseUrl("https://api.stripe.com")
 *     .preset(ProviderPreset.stripe())
 *     .intentRetention(Duration.ofHours(12))   // overrides the preset's 24 h
 *     .build();
 * ProviderPreset acme = ProviderPreset.of("acme", b -> b.keyPlacement(KeyPlacement.header("X-Key")));
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ProviderPreset {
  private final String name;
  private final Consumer<SafeRetryClientBuilder> settings;
  private final List<URI> sources;

  private ProviderPreset(
      String name, Consumer<SafeRetryClientBuilder> settings, List<URI> sources) {
    this.name = Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    this.settings = Objects.requireNonNull(settings, "settings");
    this.sources = List.copyOf(sources);
  }

  /**
   * {@return a preset of your own: {@code settings} sets what your provider documents on the
   * builder it is applied to}
   *
   * @param name the provider's name
   * @param settings sets the provider's values on a builder; must only call its setters
   * @param sources the URLs of the documentation pages the values come from
   */
  public static ProviderPreset of(
      String name, Consumer<SafeRetryClientBuilder> settings, String... sources) {
    return new ProviderPreset(
        name, settings, java.util.Arrays.stream(sources).map(URI::create).toList());
  }

  /**
   * Stripe: form bodies, {@code Idempotency-Key}, a 400 {@code idempotency_error} on reuse.
   *
   * @return the preset
   */
  public static ProviderPreset stripe() {
    return Presets.STRIPE;
  }

  /**
   * PayPal REST: JSON, {@code PayPal-Request-Id}, retention set per API.
   *
   * @return the preset
   */
  public static ProviderPreset payPal() {
    return Presets.PAYPAL;
  }

  /**
   * Adyen: JSON, {@code Idempotency-Key} of at most 64 characters, keys kept at least 31 days.
   *
   * @return the preset
   */
  public static ProviderPreset adyen() {
    return Presets.ADYEN;
  }

  /**
   * Square: JSON with the key in the body's {@code idempotency_key} field.
   *
   * @return the preset
   */
  public static ProviderPreset square() {
    return Presets.SQUARE;
  }

  /**
   * Checkout.com: JSON, {@code Cko-Idempotency-Key}, only successful answers are kept.
   *
   * @return the preset
   */
  public static ProviderPreset checkoutCom() {
    return Presets.CHECKOUT_COM;
  }

  /**
   * GoCardless: JSON, {@code Idempotency-Key}; a repeated creation answers 409 with the id.
   *
   * @return the preset
   */
  public static ProviderPreset goCardless() {
    return Presets.GOCARDLESS;
  }

  /** {@return every built-in preset, in the order above} */
  public static List<ProviderPreset> all() {
    return List.of(stripe(), payPal(), adyen(), square(), checkoutCom(), goCardless());
  }

  /**
   * Sets the provider's values on a builder, as {@link SafeRetryClientBuilder#preset} does (which
   * also names the preset in the client's logs).
   *
   * @param builder the builder
   */
  public void applyTo(SafeRetryClientBuilder builder) {
    settings.accept(Objects.requireNonNull(builder, "builder"));
  }

  /** {@return the provider's name, e.g. {@code stripe}} */
  public String name() {
    return name;
  }

  /** {@return the documentation pages the preset was built from} */
  public List<URI> sources() {
    return sources;
  }

  @Override
  public String toString() {
    return "ProviderPreset[" + name + "]";
  }
}
