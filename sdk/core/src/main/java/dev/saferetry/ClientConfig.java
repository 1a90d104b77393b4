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
import java.security.SecureRandom;
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
import okhttp3.Authenticator;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every setting of a client, in one place. The client builder edits a {@link Draft}, whose setters
 * check each value as it is set; {@link #of(Draft)} checks the settings together and takes the
 * immutable snapshot a client is built with, filling in the parts the caller brought none of;
 * {@link #draft()} gives a builder back a client's settings to derive another client from.
 *
 * <p>A setting is a field and a setter of {@link Draft} and an accessor here. Immutable and
 * thread-safe; a draft is not.
 */
final class ClientConfig {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** The longest API key accepted, in characters. */
  static final int MAX_API_KEY = 4096;

  /** The SDK's own {@code User-Agent} product token. */
  private static final String SDK_AGENT = "saferetry-java/0.1";

  /** The settings: a private copy no one changes. */
  private final Draft s;

  /** How answers are read, from the provider rules among the settings. */
  private final ResponseRules rules;

  private ClientConfig(Draft s) {
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
  public static ClientConfig of(Draft draft) {
    Draft s = draft.copy();
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
  public Draft draft() {
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

  /**
   * The settings a client builder edits: each setter checks its value (naming the setting, never
   * echoing a secret) and stores it; what depends on several settings is checked by {@link
   * ClientConfig#of}. Values are immutable or replaced whole, so that a copy shares nothing that
   * changes. Not thread-safe (a builder is not).
   */
  public static final class Draft implements Cloneable {
    private String name = "saferetry";
    private HttpUrl baseUrl;
    private String apiKey;
    private OkHttpClient okHttpClient;
    private ObjectMapper mapper;
    private KeyPlacement keyPlacement = KeyPlacement.header();
    private KeyStore keyStore;
    private String tenant = IntentScope.DEFAULT_TENANT;
    private Duration intentRetention = Duration.ofHours(24);
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private RetryClassifier classifier = RetryClassifier.standard();
    private BreakerPolicy breakerPolicy = BreakerPolicy.defaults();
    private RetryBudgetPolicy retryBudget = RetryBudgetPolicy.defaults();
    private SafeRetryListener listener = new SafeRetryListener() {};
    private Clock clock = Clock.systemUTC();
    private Sleeper sleeper = Sleeper.system();
    private DoubleSupplier jitter;
    private long maxResponseBytes = 8L * 1024 * 1024;
    private Executor asyncExecutor;
    private int asyncConcurrency = AsyncIo.defaultConcurrency();
    private String attemptHeader;
    private BodyCodec codec;
    private ApiKeyStyle apiKeyStyle = ApiKeyStyle.bearer();
    private Map<String, String> headers = Map.of();
    private Set<String> identityHeaders = Set.of();
    private String userAgent = SDK_AGENT;
    private ReplayMarker replayMarker = ResponseRules.COMMON.replay();
    private List<ErrorMatch> keyReused = ResponseRules.COMMON.keyReused();
    private List<ErrorMatch> inProgress = ResponseRules.COMMON.inProgress();
    private ExistingResource existingResource;
    private List<String> shouldRetryHeaders = ResponseRules.COMMON_SHOULD_RETRY;
    private List<ErrorMatch> retryableErrors = List.of();
    private List<String> requestIdHeaders = List.of();
    private String errorRequestIdField;
    private int keyMaxLength;
    private String presetName;

    /** The defaults: JSON with the client's mapper, a bearer API key, the common answer rules. */
    public Draft() {}

    private Draft copy() {
      try {
        return (Draft) clone();
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
    }

    /** Sets the client's name. */
    public void name(String clientName) {
      name = Objects.requireNonNull(clientName, "name");
    }

    /**
     * Sets the base URL.
     *
     * @throws IllegalArgumentException if it is not an absolute http or https URL (the message
     *     never repeats it: it may hold credentials)
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
              + SDK_AGENT;
    }
  }
}
