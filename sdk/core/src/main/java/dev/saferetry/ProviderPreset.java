package dev.saferetry;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.internal.storedrequest.StoredHeaders;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One payment provider's idempotency rules, as its published documentation states them: where the
 * key goes, how bodies are encoded, how the provider says "this is a replay", "this key was used
 * with another payload", "a request with this key is still running", which headers carry request
 * ids, how long keys are kept. A preset is data: values of client settings, which {@link
 * SafeRetryClientBuilder#preset} sets as the builder's own setters would. Each built-in preset
 * lists the pages it was built from; what a provider's documentation does not say is set to "none"
 * rather than guessed.
 *
 * <p>A preset is only a starting point: a setting made on the builder after {@code preset}
 * overrides the preset's.
 *
 * <pre>{@code
 * SafeRetryClient stripe = SafeRetryClient.builder()
 *     .baseUrl("https://api.stripe.com")
 *     .preset(ProviderPreset.stripe())
 *     .intentRetention(Duration.ofHours(12))   // overrides the preset's 24 h
 *     .build();
 * ProviderPreset acme = SafeRetryClient.builder()
 *     .keyPlacement(KeyPlacement.header("X-Key"))
 *     .toPreset("acme", "https://docs.acme.example/idempotency");
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ProviderPreset {
  /** A setting a preset may hold, and how it is set on a builder's settings. */
  enum Part {
    KEY_PLACEMENT((from, to) -> to.keyPlacement = from.keyPlacement),
    CODEC((from, to) -> to.codec = from.codec),
    API_KEY_STYLE((from, to) -> to.apiKeyStyle = from.apiKeyStyle),
    HEADERS(
        (from, to) -> from.headers.forEach((n, v) -> to.headers = withHeader(to.headers, n, v))),
    IDENTITY_HEADERS(
        (from, to) ->
            to.identityHeaders =
                withNames(to.identityHeaders, from.identityHeaders.toArray(new String[0]))),
    INTENT_RETENTION((from, to) -> to.intentRetention = from.intentRetention),
    REPLAY_MARKER((from, to) -> to.replayMarker = from.replayMarker),
    KEY_REUSED((from, to) -> to.keyReused = from.keyReused),
    IN_PROGRESS((from, to) -> to.inProgress = from.inProgress),
    EXISTING_RESOURCE((from, to) -> to.existingResource = from.existingResource),
    SHOULD_RETRY_HEADERS((from, to) -> to.shouldRetryHeaders = from.shouldRetryHeaders),
    RETRYABLE_ERRORS((from, to) -> to.retryableErrors = from.retryableErrors),
    REQUEST_ID_HEADERS((from, to) -> to.requestIdHeaders = from.requestIdHeaders),
    ERROR_REQUEST_ID_FIELD((from, to) -> to.errorRequestIdField = from.errorRequestIdField),
    KEY_MAX_LENGTH((from, to) -> to.keyMaxLength = from.keyMaxLength);

    private final BiConsumer<ClientConfig, ClientConfig> copy;

    Part(BiConsumer<ClientConfig, ClientConfig> copy) {
      this.copy = copy;
    }

    /** Sets this part of {@code to} to its value in {@code from}. */
    void copy(ClientConfig from, ClientConfig to) {
      copy.accept(from, to);
    }

    /** Default headers with one more, or one replaced, in order. */
    static Map<String, String> withHeader(Map<String, String> headers, String name, String value) {
      Map<String, String> all = new LinkedHashMap<>(headers);
      all.put(name, value);
      return Collections.unmodifiableMap(all);
    }

    /** Header names with more added, matched ignoring case. */
    static Set<String> withNames(Set<String> names, String... more) {
      Set<String> all = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
      all.addAll(names);
      all.addAll(List.of(more));
      return Collections.unmodifiableSet(all);
    }
  }

  private final String name;
  private final ClientConfig values;
  private final Set<Part> parts;
  private final List<URI> sources;

  /** The settings {@code parts} of {@code values}; see {@link SafeRetryClientBuilder#toPreset}. */
  ProviderPreset(String name, ClientConfig values, Set<Part> parts, String... sources) {
    this.name = Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    if (parts.contains(Part.HEADERS)) {
      for (String header : values.headers.keySet()) {
        if (header.equalsIgnoreCase(values.apiKeyStyle.headerName())
            || StoredHeaders.isCredential(header)) {
          throw new IllegalArgumentException(
              "header " + header + " carries a credential, which a preset never holds");
        }
      }
    }
    this.values = values;
    this.parts =
        Collections.unmodifiableSet(
            parts.isEmpty() ? EnumSet.noneOf(Part.class) : EnumSet.copyOf(parts));
    this.sources = Arrays.stream(sources).map(URI::create).toList();
  }

  // The provider rules a built-in preset always sets, to "none" where its provider says nothing.
  private static final Set<Part> RULES =
      EnumSet.of(
          Part.REPLAY_MARKER,
          Part.KEY_REUSED,
          Part.IN_PROGRESS,
          Part.EXISTING_RESOURCE,
          Part.SHOULD_RETRY_HEADERS,
          Part.RETRYABLE_ERRORS,
          Part.REQUEST_ID_HEADERS,
          Part.ERROR_REQUEST_ID_FIELD,
          Part.KEY_MAX_LENGTH);

  // A built-in preset: every provider rule "none" (so that it replaces the rules of another), then
  // what values sets, of which parts are the client settings. Each value is taken from the pages
  // listed with it; docs/requests-and-providers.md says what each page states and what none of them
  // does.
  private static ProviderPreset builtIn(
      String name, Set<Part> parts, Consumer<ClientConfig> values, String... sources) {
    ClientConfig c = new ClientConfig();
    c.replayMarker = null;
    c.keyReused = List.of();
    c.inProgress = List.of();
    c.shouldRetryHeaders = List.of("X-Should-Retry");
    values.accept(c);
    EnumSet<Part> all = EnumSet.copyOf(RULES);
    all.addAll(parts);
    return new ProviderPreset(name, c, all, sources);
  }

  private static final Set<Part> CODEC_AND_KEY =
      EnumSet.of(Part.KEY_PLACEMENT, Part.CODEC, Part.API_KEY_STYLE);

  private static Set<Part> with(Part... more) {
    EnumSet<Part> parts = EnumSet.copyOf(CODEC_AND_KEY);
    parts.addAll(List.of(more));
    return parts;
  }

  private static final ProviderPreset STRIPE =
      builtIn(
          "stripe",
          with(Part.IDENTITY_HEADERS, Part.INTENT_RETENTION),
          c -> {
            c.keyPlacement = KeyPlacement.header("Idempotency-Key");
            c.codec = BodyCodec.form();
            c.apiKeyStyle = ApiKeyStyle.bearer();
            c.identityHeaders =
                Part.withNames(Set.of(), "Stripe-Version", "Stripe-Account", "Stripe-Context");
            c.requestIdHeaders = List.of("Request-Id");
            c.replayMarker = new ReplayMarker("Idempotent-Replayed", "true");
            c.keyReused = List.of(ErrorMatch.of(400, "/error", "/type", "idempotency_error"));
            c.inProgress = List.of(ErrorMatch.status(409));
            c.shouldRetryHeaders = List.of("X-Should-Retry", "Stripe-Should-Retry");
            c.intentRetention = Duration.ofHours(24);
            c.keyMaxLength = 255;
          },
          "https://docs.stripe.com/api/idempotent_requests",
          "https://docs.stripe.com/error-low-level",
          "https://docs.stripe.com/api/errors",
          "https://docs.stripe.com/api/authentication",
          "https://docs.stripe.com/api/request_ids",
          "https://docs.stripe.com/api/connected-accounts",
          "https://docs.stripe.com/api/pagination",
          "https://docs.stripe.com/api/expanding_objects",
          "https://github.com/stripe/stripe-java",
          "https://osv.dev/vulnerability/GHSA-8mhj-rffc-rcvw");

  private static final ProviderPreset PAYPAL =
      builtIn(
          "paypal",
          with(Part.IDENTITY_HEADERS),
          c -> {
            c.keyPlacement = KeyPlacement.header("PayPal-Request-Id");
            c.codec = BodyCodec.json();
            c.apiKeyStyle = ApiKeyStyle.bearer();
            c.identityHeaders = Part.withNames(Set.of(), "PayPal-Auth-Assertion");
            c.requestIdHeaders = List.of("PayPal-Debug-Id");
            c.errorRequestIdField = "/debug_id";
            c.keyReused =
                List.of(
                    ErrorMatch.of(422, "/details/*", "/issue", "PAYPAL_REQUEST_ID_PREVIOUSLY_USED"),
                    ErrorMatch.of(0, "", "/name", "DUPLICATE_REQUEST_ID"));
          },
          "https://developer.paypal.com/reference/guidelines/idempotency",
          "https://developer.paypal.com/api/rest/requests/",
          "https://developer.paypal.com/api/payment-tokens/v3/errors/paypal_request_id_previously_used",
          "https://developer.paypal.com/api/deprecated/payments/v1/errors/duplicate_request_id",
          "https://developer.paypal.com/api/pricing/v2/definitions/error");

  private static final ProviderPreset ADYEN =
      builtIn(
          "adyen",
          with(Part.INTENT_RETENTION),
          c -> {
            c.keyPlacement = KeyPlacement.header("Idempotency-Key");
            c.codec = BodyCodec.json();
            c.apiKeyStyle = ApiKeyStyle.header("X-API-Key");
            c.errorRequestIdField = "/requestId";
            c.intentRetention = Duration.ofDays(31);
            c.keyMaxLength = 64;
          },
          "https://docs.adyen.com/development-resources/api-idempotency",
          "https://docs.adyen.com/development-resources/api-authentication",
          "https://docs.adyen.com/errors");

  private static final ProviderPreset SQUARE =
      builtIn(
          "square",
          with(Part.IDENTITY_HEADERS),
          c -> {
            c.keyPlacement = KeyPlacement.bodyField("idempotency_key");
            c.codec = BodyCodec.json();
            c.apiKeyStyle = ApiKeyStyle.bearer();
            c.identityHeaders = Part.withNames(Set.of(), "Square-Version");
            c.keyReused = List.of(ErrorMatch.of(0, "/errors/*", "/code", "IDEMPOTENCY_KEY_REUSED"));
            c.retryableErrors = List.of(ErrorMatch.of(0, "/errors/*", "/code", "TEMPORARY_ERROR"));
          },
          "https://developer.squareup.com/docs/working-with-apis/idempotency",
          "https://developer.squareup.com/docs/working-with-apis/pagination",
          "https://github.com/square/square-java-sdk/blob/master/doc/models/error-code.md");

  private static final ProviderPreset CHECKOUT_COM =
      builtIn(
          "checkout.com",
          with(Part.INTENT_RETENTION),
          c -> {
            c.keyPlacement = KeyPlacement.header("Cko-Idempotency-Key");
            c.codec = BodyCodec.json();
            c.apiKeyStyle = ApiKeyStyle.header("Authorization");
            c.requestIdHeaders = List.of("Cko-Request-Id");
            c.inProgress = List.of(ErrorMatch.status(409));
            c.intentRetention = Duration.ofHours(24);
          },
          "https://www.checkout.com/docs/payments/manage-payments/idempotency",
          "https://support.checkout.com/hc/en-us/articles/24570669653010-Why-did-I-receive-a-409-HTTP-response-to-my-idempotent-API-request-instead-of-429",
          "https://github.com/checkout/checkout-sdk-net");

  /** The "already created" conflict GoCardless answers a repeated creation with. */
  static final ErrorMatch GOCARDLESS_CONFLICT =
      ErrorMatch.of(409, "/error/errors/*", "/reason", "idempotent_creation_conflict");

  /** Where GoCardless's conflict names the resource the first request created. */
  static final String GOCARDLESS_CONFLICT_ID = "/links/conflicting_resource_id";

  private static final ProviderPreset GOCARDLESS =
      builtIn(
          "gocardless",
          with(Part.HEADERS, Part.IDENTITY_HEADERS),
          c -> {
            c.keyPlacement = KeyPlacement.header("Idempotency-Key");
            c.codec = BodyCodec.json();
            c.apiKeyStyle = ApiKeyStyle.bearer();
            c.headers = Part.withHeader(Map.of(), "GoCardless-Version", "2015-07-06");
            c.identityHeaders = Part.withNames(Set.of(), "GoCardless-Version");
            c.errorRequestIdField = "/error/request_id";
            c.existingResource = new ExistingResource(GOCARDLESS_CONFLICT, GOCARDLESS_CONFLICT_ID);
          },
          "https://gocardless.com/blog/idempotency-keys/",
          "https://github.com/gocardless/gocardless-pro-java",
          "https://github.com/gocardless/gocardless-pro-ruby");

  /**
   * Stripe: form bodies, {@code Idempotency-Key}, a 400 {@code idempotency_error} on reuse.
   *
   * @return the preset
   */
  public static ProviderPreset stripe() {
    return STRIPE;
  }

  /**
   * PayPal REST: JSON, {@code PayPal-Request-Id}, retention set per API.
   *
   * @return the preset
   */
  public static ProviderPreset payPal() {
    return PAYPAL;
  }

  /**
   * Adyen: JSON, {@code Idempotency-Key} of at most 64 characters, keys kept at least 31 days.
   *
   * @return the preset
   */
  public static ProviderPreset adyen() {
    return ADYEN;
  }

  /**
   * Square: JSON with the key in the body's {@code idempotency_key} field.
   *
   * @return the preset
   */
  public static ProviderPreset square() {
    return SQUARE;
  }

  /**
   * Checkout.com: JSON, {@code Cko-Idempotency-Key}, only successful answers are kept.
   *
   * @return the preset
   */
  public static ProviderPreset checkoutCom() {
    return CHECKOUT_COM;
  }

  /**
   * GoCardless: JSON, {@code Idempotency-Key}; a repeated creation answers 409 with the id.
   *
   * @return the preset
   */
  public static ProviderPreset goCardless() {
    return GOCARDLESS;
  }

  /** {@return every built-in preset, in the order above} */
  public static List<ProviderPreset> all() {
    return List.of(stripe(), payPal(), adyen(), square(), checkoutCom(), goCardless());
  }

  /** {@return the provider's name, e.g. {@code stripe}} */
  public String name() {
    return name;
  }

  /** {@return the documentation pages the preset was built from} */
  public List<URI> sources() {
    return sources;
  }

  /** The settings this preset holds; read with {@link #values()}. */
  Set<Part> parts() {
    return parts;
  }

  /** The values of the settings it holds (the others are a builder's defaults). */
  ClientConfig values() {
    return values;
  }

  @Override
  public String toString() {
    return "ProviderPreset[" + name + "]";
  }
}
