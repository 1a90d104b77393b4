package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.codec.BodyCodec;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.Redaction;
import dev.saferetry.provider.ApiKeyStyle;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
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
 * Every setting of a client, in one place. The client builder edits a {@link ClientDraft}, whose
 * setters check each value as it is set; {@link #of(ClientDraft)} checks the settings together and
 * takes the immutable snapshot a client is built with, filling in the parts the caller brought none
 * of; {@link #draft()} gives a builder back a client's settings to derive another client from.
 *
 * <p>A setting is a field and a setter of {@link ClientDraft} and an accessor here. Immutable and
 * thread-safe; a draft is not.
 */
final class ClientConfig {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** The longest API key accepted, in characters. */
  static final int MAX_API_KEY = 4096;

  /** The SDK's own {@code User-Agent} product token. */
  static final String SDK_AGENT = "saferetry-java/0.1";

  /** The settings: a private copy no one changes. */
  private final ClientDraft s;

  /** How answers are read, from the provider rules among the settings. */
  private final ResponseRules rules;

  private ClientConfig(ClientDraft s) {
    this.s = s;
    this.rules =
        new ResponseRules(
            s.replayMarker,
            s.keyReused,
            s.inProgress,
            s.existingResource,
            s.shouldRetryHeaders,
            s.retryableErrors,
            s.requestIdHeaders,
            s.errorRequestIdField);
  }

  /**
   * Checks a builder's settings together and takes their snapshot: the caller's mapper becomes a
   * lenient copy, and a codec, key store and jitter source are created when none was set.
   *
   * @throws IllegalStateException if no base URL was set
   * @throws IllegalArgumentException naming the first bad setting (never echoing a secret)
   */
  public static ClientConfig of(ClientDraft draft) {
    ClientDraft s = draft.copy();
    s.check();
    if (s.okHttpClient != null && s.okHttpClient.authenticator() != Authenticator.NONE) {
      LOG.warn(
          "the OkHttpClient's authenticator is not used: a 401 ends the call as ApiException;"
              + " put credentials on every request (apiKey or an interceptor)");
    }
    s.mapper = Json.lenientCopy(s.mapper);
    if (s.keyPlacement.inBody() && s.codec != null && !s.codec.canAddTopLevelField()) {
      throw new IllegalArgumentException(
          "keyPlacement puts the key in the body, which codec cannot do");
    }
    if (s.codec == null) {
      s.codec = new ClientJsonCodec(s.mapper);
    }
    if (s.keyStore == null) {
      s.keyStore = KeyStore.inMemory();
    }
    if (s.jitter == null) {
      s.jitter = new SecureRandom()::nextDouble;
    }
    return new ClientConfig(s);
  }

  /** {@return a draft holding these settings, to derive another client from} */
  public ClientDraft draft() {
    return s.copy();
  }

  /** {@return the client's name in logs, metrics and thread names} */
  public String name() {
    return s.name;
  }

  /** {@return the API's base URL} */
  public HttpUrl baseUrl() {
    return s.baseUrl;
  }

  /** {@return the API key, or null for none} */
  public String apiKey() {
    return s.apiKey;
  }

  /** {@return the caller's OkHttp client, or null for the SDK's own} */
  public OkHttpClient okHttpClient() {
    return s.okHttpClient;
  }

  /** {@return the mapper: a copy of the caller's (or a new one) that ignores unknown fields} */
  public ObjectMapper mapper() {
    return s.mapper;
  }

  /** {@return where the key goes} */
  public KeyPlacement keyPlacement() {
    return s.keyPlacement;
  }

  /** {@return where intents' keys are kept} */
  public KeyStore keyStore() {
    return s.keyStore;
  }

  /** {@return the tenant that scopes intent ids} */
  public String tenant() {
    return s.tenant;
  }

  /** {@return how long an intent's key is kept and reused} */
  public Duration intentRetention() {
    return s.intentRetention;
  }

  /** {@return attempts, backoff, deadline and hint ceiling} */
  public RetryPolicy retryPolicy() {
    return s.retryPolicy;
  }

  /** {@return what is retried} */
  public RetryClassifier classifier() {
    return s.classifier;
  }

  /** {@return the circuit breaker's policy} */
  public BreakerPolicy breakerPolicy() {
    return s.breakerPolicy;
  }

  /** {@return the client-wide retry budget's policy} */
  public RetryBudgetPolicy retryBudget() {
    return s.retryBudget;
  }

  /** {@return the caller's listener} */
  public SafeRetryListener listener() {
    return s.listener;
  }

  /** {@return the clock for deadlines, hints, intents and the breaker} */
  public Clock clock() {
    return s.clock;
  }

  /** {@return how the client waits between attempts} */
  public Sleeper sleeper() {
    return s.sleeper;
  }

  /** {@return the jitter source, returning values in [0, 1)} */
  public DoubleSupplier jitter() {
    return s.jitter;
  }

  /** {@return the largest 2xx body read, in bytes} */
  public long maxResponseBytes() {
    return s.maxResponseBytes;
  }

  /** {@return the caller's executor for asynchronous calls, or null for the SDK's own} */
  public Executor asyncExecutor() {
    return s.asyncExecutor;
  }

  /** {@return how many asynchronous calls the SDK's own executor runs at once} */
  public int asyncConcurrency() {
    return s.asyncConcurrency;
  }

  /** {@return the header carrying the attempt number, or null for none} */
  public String attemptHeader() {
    return s.attemptHeader;
  }

  /** {@return the body codec of operations that name none} */
  public BodyCodec codec() {
    return s.codec;
  }

  /** {@return where and how the API key is sent} */
  public ApiKeyStyle apiKeyStyle() {
    return s.apiKeyStyle;
  }

  /** {@return the headers sent on every request, in order (a later layer's header wins)} */
  public Map<String, String> headers() {
    return s.headers;
  }

  /** {@return the header names that belong to every keyed intent's identity (any case)} */
  public Set<String> identityHeaders() {
    return s.identityHeaders;
  }

  /** {@return the {@code User-Agent} value} */
  public String userAgent() {
    return s.userAgent;
  }

  /** {@return how answers are read: the provider's rules} */
  public ResponseRules rules() {
    return rules;
  }

  /** {@return the longest key the provider accepts, or 0 for no limit} */
  public int keyMaxLength() {
    return s.keyMaxLength;
  }

  /** {@return the preset the client was built with, or null} */
  public String presetName() {
    return s.presetName;
  }

  /** Prints no secret: no API key, and the base URL without user info or query. */
  @Override
  public String toString() {
    return "ClientConfig["
        + s.name
        + ", "
        + Redaction.url(s.baseUrl)
        + ", "
        + s.keyPlacement
        + (s.presetName == null ? "" : ", preset " + s.presetName)
        + "]";
  }
}
