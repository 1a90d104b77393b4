package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.HttpText;
import dev.saferetry.internal.Redaction;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import okhttp3.Authenticator;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every setting of a client, in one place: {@link SafeRetryClientBuilder} sets these fields (its
 * setters check each value and document it), {@link #resolve} checks them together and takes the
 * copy a client is built with, and a client's copy is never changed again. A setting is a field
 * here, its accessor, and its builder setter.
 *
 * <p>A resolved copy is immutable and thread-safe; the builder's own copy is not.
 */
final class ClientConfig {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** The longest API key accepted, in characters. */
  static final int MAX_API_KEY = 4096;

  /** The SDK's own {@code User-Agent} product token. */
  static final String SDK_AGENT = "saferetry-java/0.1";

  String name = "saferetry";
  HttpUrl baseUrl;
  String apiKey;
  OkHttpClient okHttpClient;
  ObjectMapper mapper;
  KeyPlacement keyPlacement = KeyPlacement.header();
  KeyStore keyStore;
  String tenant = IntentScope.DEFAULT_TENANT;
  Duration intentRetention = Duration.ofHours(24);
  RetryPolicy retryPolicy = RetryPolicy.defaults();
  RetryClassifier classifier = RetryClassifier.standard();
  BreakerPolicy breakerPolicy = BreakerPolicy.defaults();
  RetryBudgetPolicy retryBudget = RetryBudgetPolicy.defaults();
  RetryRegistry retryRegistry;
  CircuitBreakerRegistry circuitBreakerRegistry;
  SafeRetryListener listener = new SafeRetryListener() {};
  Clock clock = Clock.systemUTC();
  Sleeper sleeper = Sleeper.system();
  DoubleSupplier jitter;
  long maxResponseBytes = 8L * 1024 * 1024;
  Executor asyncExecutor;
  int asyncConcurrency = AsyncIo.defaultConcurrency();
  String attemptHeader;
  BodyCodec codec;
  ApiKeyStyle apiKeyStyle = ApiKeyStyle.bearer();
  Map<String, String> headers = Map.of();
  Set<String> identityHeaders = Set.of();
  String userAgent = SDK_AGENT;
  ReplayMarker replayMarker = ResponseRules.COMMON.replay();
  List<ErrorMatch> keyReused = ResponseRules.COMMON.keyReused();
  List<ErrorMatch> inProgress = ResponseRules.COMMON.inProgress();
  ExistingResource existingResource;
  List<String> shouldRetryHeaders = ResponseRules.COMMON_SHOULD_RETRY;
  List<ErrorMatch> retryableErrors = List.of();
  List<String> requestIdHeaders = List.of();
  String errorRequestIdField;
  int keyMaxLength;
  String presetName;

  // How answers are read; made by resolve from the provider rules above.
  private ResponseRules rules;

  /** The defaults: JSON with the client's mapper, a bearer API key, the common answer rules. */
  ClientConfig() {}

  /** A copy: every value is immutable or replaced whole, so that a copy shares nothing mutable. */
  ClientConfig(ClientConfig from) {
    name = from.name;
    baseUrl = from.baseUrl;
    apiKey = from.apiKey;
    okHttpClient = from.okHttpClient;
    mapper = from.mapper;
    keyPlacement = from.keyPlacement;
    keyStore = from.keyStore;
    tenant = from.tenant;
    intentRetention = from.intentRetention;
    retryPolicy = from.retryPolicy;
    classifier = from.classifier;
    breakerPolicy = from.breakerPolicy;
    retryBudget = from.retryBudget;
    retryRegistry = from.retryRegistry;
    circuitBreakerRegistry = from.circuitBreakerRegistry;
    listener = from.listener;
    clock = from.clock;
    sleeper = from.sleeper;
    jitter = from.jitter;
    maxResponseBytes = from.maxResponseBytes;
    asyncExecutor = from.asyncExecutor;
    asyncConcurrency = from.asyncConcurrency;
    attemptHeader = from.attemptHeader;
    codec = from.codec;
    apiKeyStyle = from.apiKeyStyle;
    headers = from.headers;
    identityHeaders = from.identityHeaders;
    userAgent = from.userAgent;
    replayMarker = from.replayMarker;
    keyReused = from.keyReused;
    inProgress = from.inProgress;
    existingResource = from.existingResource;
    shouldRetryHeaders = from.shouldRetryHeaders;
    retryableErrors = from.retryableErrors;
    requestIdHeaders = from.requestIdHeaders;
    errorRequestIdField = from.errorRequestIdField;
    keyMaxLength = from.keyMaxLength;
    presetName = from.presetName;
    rules = from.rules;
  }

  /**
   * Checks the settings together and returns the copy a client is built with: the caller's mapper
   * becomes a lenient copy, and a codec, key store and jitter source are created when none was set.
   *
   * @throws IllegalStateException if no base URL was set
   * @throws IllegalArgumentException naming the first bad setting (never echoing a secret)
   */
  ClientConfig resolve() {
    ClientConfig c = new ClientConfig(this);
    c.check();
    if (c.okHttpClient != null && c.okHttpClient.authenticator() != Authenticator.NONE) {
      LOG.warn(
          "the OkHttpClient's authenticator is not used: a 401 ends the call as ApiException;"
              + " put credentials on every request (apiKey or an interceptor)");
    }
    c.mapper = Json.lenientCopy(c.mapper);
    if (c.codec == null) {
      c.codec = new ClientJsonCodec(c.mapper);
    }
    if (c.keyStore == null) {
      c.keyStore = KeyStore.inMemory();
    }
    if (c.jitter == null) {
      c.jitter = new SecureRandom()::nextDouble;
    }
    c.rules =
        new ResponseRules(
            c.replayMarker,
            c.keyReused,
            c.inProgress,
            c.existingResource,
            c.shouldRetryHeaders,
            c.retryableErrors,
            c.requestIdHeaders,
            c.errorRequestIdField);
    return c;
  }

  // Checks what depends on several settings, or on none being missing.
  private void check() {
    if (baseUrl == null) {
      throw new IllegalStateException("baseUrl is required");
    }
    if (!baseUrl.username().isEmpty() || !baseUrl.password().isEmpty()) {
      throw new IllegalArgumentException(
          "baseUrl must not contain user info: it is never sent; use apiKey or an interceptor");
    }
    if (apiKey != null) {
      if (apiKey.isEmpty() || apiKey.length() > MAX_API_KEY) {
        throw new IllegalArgumentException("apiKey must be 1.." + MAX_API_KEY + " characters");
      }
      for (int i = 0; i < apiKey.length(); i++) {
        char c = apiKey.charAt(i);
        if (c < 0x21 || c > 0x7E) {
          throw new IllegalArgumentException(
              "apiKey must be visible ASCII without spaces; the character at index "
                  + i
                  + " is not");
        }
      }
    }
    if (name.isBlank() || name.chars().anyMatch(c -> c < 0x20 || c > 0x7E)) {
      throw new IllegalArgumentException("name must be non-blank printable ASCII");
    }
    if (!keyPlacement.inBody()) {
      HttpText.headerName("keyPlacement header name", keyPlacement.name());
    }
    if (attemptHeader != null) {
      HttpText.headerName("attemptHeader", attemptHeader);
      if (attemptHeader.equalsIgnoreCase("X-Request-Id")
          || (!keyPlacement.inBody() && attemptHeader.equalsIgnoreCase(keyPlacement.name()))) {
        throw new IllegalArgumentException(
            "attemptHeader must not be the request id or the idempotency key header");
      }
    }
    new IntentScope(tenant, "check");
    IntentRecord.checkRetention("intentRetention", intentRetention);
    if (maxResponseBytes < 1) {
      throw new IllegalArgumentException("maxResponseBytes must be positive");
    }
    if (asyncConcurrency < 1) {
      throw new IllegalArgumentException("asyncConcurrency must be >= 1");
    }
    if (keyPlacement.inBody() && codec != null && !codec.canAddTopLevelField()) {
      throw new IllegalArgumentException(
          "keyPlacement puts the key in the body, which codec cannot do");
    }
  }

  /** {@return the client's name in logs, metrics and thread names} */
  String name() {
    return name;
  }

  /** {@return the API's base URL} */
  HttpUrl baseUrl() {
    return baseUrl;
  }

  /** {@return the API key, or null when the client sends none} */
  String apiKey() {
    return apiKey;
  }

  /** {@return the caller's OkHttp client, or null for the SDK's own} */
  OkHttpClient okHttpClient() {
    return okHttpClient;
  }

  /** {@return the mapper: a copy of the caller's (or a new one) that ignores unknown fields} */
  ObjectMapper mapper() {
    return mapper;
  }

  /** {@return where the key goes} */
  KeyPlacement keyPlacement() {
    return keyPlacement;
  }

  /** {@return where intents' keys are kept} */
  KeyStore keyStore() {
    return keyStore;
  }

  /** {@return the tenant that scopes intent ids} */
  String tenant() {
    return tenant;
  }

  /** {@return how long an intent's key is kept and reused} */
  Duration intentRetention() {
    return intentRetention;
  }

  /** {@return attempts, backoff, deadline and hint ceiling} */
  RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  /** {@return what is retried} */
  RetryClassifier classifier() {
    return classifier;
  }

  /** {@return the circuit breaker's policy} */
  BreakerPolicy breakerPolicy() {
    return breakerPolicy;
  }

  /** {@return the client-wide retry budget's policy} */
  RetryBudgetPolicy retryBudget() {
    return retryBudget;
  }

  /** {@return the caller's registry the client's retry is created in, or null for none} */
  RetryRegistry retryRegistry() {
    return retryRegistry;
  }

  /** {@return the caller's registry the client's breaker is created in, or null for none} */
  CircuitBreakerRegistry circuitBreakerRegistry() {
    return circuitBreakerRegistry;
  }

  /** {@return the caller's listener} */
  SafeRetryListener listener() {
    return listener;
  }

  /** {@return the clock for deadlines, hints, intents and the breaker} */
  Clock clock() {
    return clock;
  }

  /** {@return how the client waits between attempts} */
  Sleeper sleeper() {
    return sleeper;
  }

  /** {@return the jitter source, returning values in [0, 1)} */
  DoubleSupplier jitter() {
    return jitter;
  }

  /** {@return the largest 2xx body read, in bytes} */
  long maxResponseBytes() {
    return maxResponseBytes;
  }

  /** {@return the caller's executor for asynchronous calls, or null for the SDK's own} */
  Executor asyncExecutor() {
    return asyncExecutor;
  }

  /** {@return how many asynchronous calls the SDK's own executor runs at once} */
  int asyncConcurrency() {
    return asyncConcurrency;
  }

  /** {@return the header carrying the attempt number, or null when none is sent} */
  String attemptHeader() {
    return attemptHeader;
  }

  /** {@return the body codec of operations that name none} */
  BodyCodec codec() {
    return codec;
  }

  /** {@return where and how the API key is sent} */
  ApiKeyStyle apiKeyStyle() {
    return apiKeyStyle;
  }

  /** {@return the headers sent on every request, in order (a later layer's header wins)} */
  Map<String, String> headers() {
    return headers;
  }

  /** {@return the header names that belong to every keyed intent's identity (any case)} */
  Set<String> identityHeaders() {
    return identityHeaders;
  }

  /** {@return the {@code User-Agent} value} */
  String userAgent() {
    return userAgent;
  }

  /** {@return how answers are read: the provider's rules} */
  ResponseRules rules() {
    return rules;
  }

  /** {@return the longest key the provider accepts, or 0 for no limit} */
  int keyMaxLength() {
    return keyMaxLength;
  }

  /** Prints no secret: no API key, and the base URL without user info or query. */
  @Override
  public String toString() {
    return "ClientConfig["
        + name
        + ", "
        + Redaction.url(baseUrl)
        + ", "
        + keyPlacement
        + (presetName == null ? "" : ", preset " + presetName)
        + "]";
  }
}
