package dev.saferetry.provider;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One payment provider's idempotency rules, as its published documentation states them: where the
 * key goes, how bodies are encoded, how the provider says "this is a replay", "this key was used
 * with another payload", "a request with this key is still running", which headers carry request
 * ids, how long keys are kept, and where its behaviour departs from the common contract. Each
 * preset lists the pages it was built from; what a provider's documentation does not say is left
 * empty rather than guessed.
 *
 * <pre>{@code
 * ProviderPreset stripe = ProviderPreset.stripe();
 * stripe.keyPlacement();   // Idempotency-Key header
 * stripe.bodyCodec();      // form, metadata[order_id]=6735
 * ProviderPreset own = ProviderPreset.builder("acme").keyPlacement(KeyPlacement.header("X-Key")).build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ProviderPreset {
  private final PresetValues v;

  ProviderPreset(PresetValues values) {
    this.v = values;
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

  /**
   * Returns every built-in preset, in the order above.
   *
   * @return every built-in preset, in the order above
   */
  public static List<ProviderPreset> all() {
    return List.of(stripe(), payPal(), adyen(), square(), checkoutCom(), goCardless());
  }

  /**
   * Returns a builder for a preset of your own.
   *
   * @param name the name
   * @return a builder for a preset of your own
   */
  public static PresetBuilder builder(String name) {
    return new PresetBuilder(name);
  }

  /**
   * Returns a builder holding a copy of this preset's values, to adjust one; this preset is left as
   * it is (a value holds no resources, so nothing is shared).
   *
   * @return a builder holding this preset's values, to adjust one
   */
  public PresetBuilder toBuilder() {
    return new PresetBuilder(v);
  }

  /**
   * Returns the provider's name, e.g. {@code stripe}.
   *
   * @return the provider's name, e.g
   */
  public String name() {
    return v.name();
  }

  /**
   * Returns where the idempotency key goes.
   *
   * @return where the idempotency key goes
   */
  public KeyPlacement keyPlacement() {
    return v.keyPlacement();
  }

  /**
   * Returns how request bodies are encoded.
   *
   * @return how request bodies are encoded
   */
  public BodyCodec bodyCodec() {
    return v.bodyCodec();
  }

  /**
   * Returns how the API key is sent.
   *
   * @return how the API key is sent
   */
  public ApiKeyStyle apiKeyStyle() {
    return v.apiKeyStyle();
  }

  /**
   * Returns headers every request carries, e.g. GoCardless's mandatory version.
   *
   * @return headers every request carries, e.g
   */
  public Map<String, String> defaultHeaders() {
    return v.defaultHeaders();
  }

  /**
   * Returns the API-version header, if the provider versions by header.
   *
   * @return the API-version header, if the provider versions by header
   */
  public Optional<String> versionHeader() {
    return Optional.ofNullable(v.versionHeader());
  }

  /**
   * Returns the headers that change what a request means (an account acted for, an API version):
   * part of an intent's identity, so the same intent with another value is refused locally.
   *
   * @return the headers that change what a request means (an account acted for, an API version):
   *     part of an intent's identity, so the same intent with another value is refused locally
   */
  public Set<String> identityHeaders() {
    return v.identityHeaders();
  }

  /**
   * Returns the response headers carrying the provider's request id, in order of preference.
   *
   * @return the response headers carrying the provider's request id, in order of preference
   */
  public List<String> requestIdHeaders() {
    return v.requestIdHeaders();
  }

  /**
   * Returns the JSON pointer of the request id in an error body, if the provider puts one there.
   *
   * @return the JSON pointer of the request id in an error body, if the provider puts one there
   */
  public Optional<String> errorRequestIdField() {
    return Optional.ofNullable(v.errorRequestIdField());
  }

  /**
   * Returns the header that marks a replayed answer, if the provider sends one.
   *
   * @return the header that marks a replayed answer, if the provider sends one
   */
  public Optional<ReplayMarker> replayMarker() {
    return Optional.ofNullable(v.replayMarker());
  }

  /**
   * Returns how the provider says the key was used with another payload.
   *
   * @return how the provider says the key was used with another payload
   */
  public List<ErrorMatch> keyReused() {
    return v.keyReused();
  }

  /**
   * Returns how the provider says a request with the same key is still running (retryable).
   *
   * @return how the provider says a request with the same key is still running (retryable)
   */
  public List<ErrorMatch> inProgress() {
    return v.inProgress();
  }

  /**
   * Returns the conflict that means "already created", for providers that answer so.
   *
   * @return the conflict that means "already created", for providers that answer so
   */
  public Optional<ExistingResource> existingResource() {
    return Optional.ofNullable(v.existingResource());
  }

  /**
   * Returns the provider's retry hints.
   *
   * @return the provider's retry hints
   */
  public RetryHints retryHints() {
    return v.retryHints();
  }

  /**
   * Returns how long the provider keeps a key at least, if documented.
   *
   * @return how long the provider keeps a key at least, if documented
   */
  public Optional<Duration> keyRetention() {
    return Optional.ofNullable(v.keyRetention());
  }

  /**
   * Returns the longest key the provider accepts, if documented.
   *
   * @return the longest key the provider accepts, if documented
   */
  public OptionalInt keyMaxLength() {
    return v.keyMaxLength() == 0 ? OptionalInt.empty() : OptionalInt.of(v.keyMaxLength());
  }

  /**
   * Returns the documentation pages the preset was built from.
   *
   * @return the documentation pages the preset was built from
   */
  public List<URI> sources() {
    return v.sources();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProviderPreset p && p.v.equals(v);
  }

  @Override
  public int hashCode() {
    return v.hashCode();
  }

  @Override
  public String toString() {
    return "ProviderPreset[" + v.name() + ", key in " + v.keyPlacement() + "]";
  }
}
