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
import dev.saferetry.internal.codec.ErrorBodies;
import dev.saferetry.provider.ApiKeyStyle;
import dev.saferetry.provider.ErrorMatch;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The settings a client builder edits: each setter checks its value (naming the setting, never
 * echoing a secret) and stores it; what depends on several settings is checked by {@link
 * ClientConfig#of}. Values are immutable or replaced whole, so that a copy shares nothing that
 * changes. Not thread-safe (a builder is not).
 */
final class ClientDraft implements Cloneable {
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
  String userAgent = ClientConfig.SDK_AGENT;
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

  /** The defaults: JSON with the client's mapper, a bearer API key, the common answer rules. */
  ClientDraft() {}

  ClientDraft copy() {
    try {
      return (ClientDraft) clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** Names the client and its base URL, without user info or query. */
  @Override
  public String toString() {
    return name + ", " + Redaction.url(baseUrl);
  }

  /** Checks what depends on several settings, or on none being missing. */
  void check() {
    if (baseUrl == null) {
      throw new IllegalStateException("baseUrl is required");
    }
    if (!baseUrl.username().isEmpty() || !baseUrl.password().isEmpty()) {
      throw new IllegalArgumentException(
          "baseUrl must not contain user info: it is never sent; use apiKey or an interceptor");
    }
    if (apiKey != null) {
      if (apiKey.isEmpty() || apiKey.length() > ClientConfig.MAX_API_KEY) {
        throw new IllegalArgumentException(
            "apiKey must be 1.." + ClientConfig.MAX_API_KEY + " characters");
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
  }

  /** Sets the client's name. */
  public void name(String clientName) {
    name = Objects.requireNonNull(clientName, "name");
  }

  /**
   * Sets the base URL.
   *
   * @throws IllegalArgumentException if it is not an absolute http or https URL (the message never
   *     repeats it: it may hold credentials)
   */
  public void baseUrl(String url) {
    HttpUrl parsed = HttpUrl.parse(Objects.requireNonNull(url, "baseUrl"));
    if (parsed == null) {
      throw new IllegalArgumentException("baseUrl is not an absolute http or https URL");
    }
    baseUrl = parsed;
  }

  /** Sets the API key, or none; checked by {@link ClientConfig#of}. */
  public void apiKey(String key) {
    apiKey = key;
  }

  /** Sets the caller's OkHttp client. */
  public void okHttpClient(OkHttpClient client) {
    okHttpClient = Objects.requireNonNull(client, "okHttpClient");
  }

  /** Sets the caller's mapper. */
  public void objectMapper(ObjectMapper objectMapper) {
    mapper = Objects.requireNonNull(objectMapper, "objectMapper");
  }

  /** Sets where the key goes. */
  public void keyPlacement(KeyPlacement placement) {
    keyPlacement = Objects.requireNonNull(placement, "keyPlacement");
  }

  /** Sets where intents' keys are kept. */
  public void keyStore(KeyStore store) {
    keyStore = Objects.requireNonNull(store, "keyStore");
  }

  /** Sets the tenant. */
  public void tenant(String tenantName) {
    tenant = Objects.requireNonNull(tenantName, "tenant");
  }

  /** Sets how long an intent's key is kept; checked by {@link ClientConfig#of}. */
  public void intentRetention(Duration retention) {
    intentRetention = Objects.requireNonNull(retention, "intentRetention");
  }

  /** Sets the retry policy. */
  public void retryPolicy(RetryPolicy policy) {
    retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
  }

  /** Sets what is retried. */
  public void retryClassifier(RetryClassifier c) {
    classifier = Objects.requireNonNull(c, "retryClassifier");
  }

  /** Sets the circuit breaker's policy. */
  public void breakerPolicy(BreakerPolicy policy) {
    breakerPolicy = Objects.requireNonNull(policy, "breakerPolicy");
  }

  /** Sets the retry budget's policy. */
  public void retryBudget(RetryBudgetPolicy policy) {
    retryBudget = Objects.requireNonNull(policy, "retryBudget");
  }

  /** Sets the listener. */
  public void listener(SafeRetryListener l) {
    listener = Objects.requireNonNull(l, "listener");
  }

  /** Sets the clock. */
  public void clock(Clock c) {
    clock = Objects.requireNonNull(c, "clock");
  }

  /** Sets how the client waits between attempts. */
  public void sleeper(Sleeper s) {
    sleeper = Objects.requireNonNull(s, "sleeper");
  }

  /** Sets the jitter source. */
  public void jitter(DoubleSupplier random) {
    jitter = Objects.requireNonNull(random, "jitter");
  }

  /** Sets the largest 2xx body read; checked by {@link ClientConfig#of}. */
  public void maxResponseBytes(long bytes) {
    maxResponseBytes = bytes;
  }

  /** Sets the caller's executor for asynchronous calls. */
  public void asyncExecutor(Executor executor) {
    asyncExecutor = Objects.requireNonNull(executor, "asyncExecutor");
  }

  /** Sets how many asynchronous calls run at once; checked by {@link ClientConfig#of}. */
  public void asyncConcurrency(int calls) {
    asyncConcurrency = calls;
  }

  /** Sets the attempt number's header, or none; checked by {@link ClientConfig#of}. */
  public void attemptHeader(String headerName) {
    attemptHeader = headerName;
  }

  /** Names the preset the settings came from, for logs. */
  public void presetName(String preset) {
    presetName = Objects.requireNonNull(preset, "name");
  }

  /** Sets the replay marker, or none. */
  public void replayMarker(ReplayMarker marker) {
    replayMarker = marker;
  }

  /** Sets how the provider says the key was used with another payload. */
  public void keyReused(ErrorMatch... matches) {
    keyReused = List.of(matches);
  }

  /** Sets how the provider says a request with the key is still running. */
  public void inProgress(ErrorMatch... matches) {
    inProgress = List.of(matches);
  }

  /** Sets the conflict that means "already created", or none. */
  public void existingResource(ExistingResource conflict) {
    existingResource = conflict;
  }

  /** Sets the headers whose true or false decides whether an error answer is retried. */
  public void shouldRetryHeaders(String... names) {
    for (String name : names) {
      HttpText.headerName("shouldRetryHeaders", Objects.requireNonNull(name, "name"));
    }
    shouldRetryHeaders = List.of(names);
  }

  /** Sets the error answers documented as safe to retry with the same key. */
  public void retryableErrors(ErrorMatch... matches) {
    retryableErrors = List.of(matches);
  }

  /** Sets the headers carrying the provider's request id, in order of preference. */
  public void requestIdHeaders(String... names) {
    for (String name : names) {
      HttpText.headerName("requestIdHeaders", Objects.requireNonNull(name, "name"));
    }
    requestIdHeaders = List.of(names);
  }

  /** Sets the JSON pointer of the request id in an error body, or none. */
  public void errorRequestIdField(String pointer) {
    if (pointer != null) {
      ErrorBodies.checkPointer(pointer, false, "errorRequestIdField");
    }
    errorRequestIdField = pointer;
  }

  /** Sets the longest key the provider accepts, or 0 for no limit. */
  public void keyMaxLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("keyMaxLength must not be negative, was " + length);
    }
    keyMaxLength = length;
  }

  /** Sets the body codec of operations that name none. */
  public void codec(BodyCodec bodyCodec) {
    codec = Objects.requireNonNull(bodyCodec, "codec");
  }

  /** Sets where and how the API key is sent. */
  public void apiKeyStyle(ApiKeyStyle style) {
    apiKeyStyle = Objects.requireNonNull(style, "apiKeyStyle");
  }

  /**
   * Adds a header sent on every request, or replaces its value.
   *
   * @throws IllegalArgumentException for a bad name or value, or a header the SDK sets itself
   */
  public void header(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    HttpText.headerName("header name", name);
    HttpText.headerValue(name, value);
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("x-request-id") || lower.equals("user-agent")) {
      throw new IllegalArgumentException(
          name + " is set by the SDK; use userAgent() for User-Agent");
    }
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put(name, value);
    headers = Collections.unmodifiableMap(all);
  }

  /** Adds headers to every keyed intent's identity. */
  public void identityHeaders(String... names) {
    Set<String> all = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    all.addAll(identityHeaders);
    for (String name : names) {
      HttpText.headerName("identity header", Objects.requireNonNull(name, "name"));
      all.add(name);
    }
    identityHeaders = Collections.unmodifiableSet(all);
  }

  /**
   * Names the application in the {@code User-Agent}, before the SDK's own token.
   *
   * @throws IllegalArgumentException if either is not a non-empty HTTP token
   */
  public void userAgent(String appName, String appVersion) {
    userAgent =
        HttpText.token("appName", appName)
            + "/"
            + HttpText.token("appVersion", appVersion)
            + " "
            + ClientConfig.SDK_AGENT;
  }
}
