package dev.saferetry.spring;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One client's properties, {@code saferetry.clients.<name>.*}. The credentials are masked in
 * Actuator's {@code env} and {@code configprops} endpoints and never appear in {@link #toString()}.
 *
 * <p>Mutable while Spring binds it; read-only by convention afterwards.
 */
public class ClientProperties {
  /** The provider's base URL, e.g. https://api.stripe.com. */
  private String baseUrl;

  /**
   * A provider preset from saferetry-core: stripe, paypal, adyen, square, checkout.com or
   * gocardless (key placement, codec, retryable errors, identity headers).
   */
  private String preset;

  /** The tenant that scopes this client's intents; default: the client's name. */
  private String tenant;

  /**
   * A generated typed client facade (fully qualified class name, listed in
   * META-INF/saferetry/typed-clients.list) to register as a bean named after the client plus
   * "TypedClient".
   */
  private String typedClient;

  /** Extra headers sent with every call (not for credentials: use credentials.api-key). */
  private Map<String, String> headers = new LinkedHashMap<>();

  private final Credentials credentials = new Credentials();
  private final Retry retry = new Retry();
  private final Breaker breaker = new Breaker();
  private final Budget budget = new Budget();
  private final KeyStore keyStore = new KeyStore();

  /** Creates the defaults. */
  public ClientProperties() {}

  /** {@return the base URL} */
  public String getBaseUrl() {
    return baseUrl;
  }

  /**
   * Sets the base URL.
   *
   * @param baseUrl the URL
   */
  public void setBaseUrl(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** {@return the preset name, or null} */
  public String getPreset() {
    return preset;
  }

  /**
   * Sets the preset name.
   *
   * @param preset the name
   */
  public void setPreset(String preset) {
    this.preset = preset;
  }

  /** {@return the tenant, or null for the client's name} */
  public String getTenant() {
    return tenant;
  }

  /**
   * Sets the tenant.
   *
   * @param tenant the tenant
   */
  public void setTenant(String tenant) {
    this.tenant = tenant;
  }

  /** {@return the typed client's class name, or null} */
  public String getTypedClient() {
    return typedClient;
  }

  /**
   * Sets the typed client's class name.
   *
   * @param typedClient the class name
   */
  public void setTypedClient(String typedClient) {
    this.typedClient = typedClient;
  }

  /** {@return the extra headers} */
  public Map<String, String> getHeaders() {
    return headers;
  }

  /**
   * Sets the extra headers.
   *
   * @param headers the headers
   */
  public void setHeaders(Map<String, String> headers) {
    this.headers = headers;
  }

  /** {@return the credentials} */
  public Credentials getCredentials() {
    return credentials;
  }

  /** {@return the retry settings} */
  public Retry getRetry() {
    return retry;
  }

  /** {@return the breaker settings} */
  public Breaker getBreaker() {
    return breaker;
  }

  /** {@return the retry budget settings} */
  public Budget getBudget() {
    return budget;
  }

  /** {@return the key store settings} */
  public KeyStore getKeyStore() {
    return keyStore;
  }

  @Override
  public String toString() {
    return "ClientProperties[baseUrl=" + baseUrl + ", preset=" + preset + ", credentials=***]";
  }

  /** The credentials: never logged, masked in Actuator. Mutable while bound. */
  public static class Credentials {

    /** Creates the defaults. */
    public Credentials() {}

    /** The API key, sent as a bearer token or in the header the preset or api-key-header names. */
    private String apiKey;

    /** The header that carries the API key verbatim (e.g. X-API-Key); default: bearer. */
    private String apiKeyHeader;

    /** {@return the API key, or null} */
    public String getApiKey() {
      return apiKey;
    }

    /**
     * Sets the API key.
     *
     * @param apiKey the key
     */
    public void setApiKey(String apiKey) {
      this.apiKey = apiKey;
    }

    /** {@return the API key's header, or null} */
    public String getApiKeyHeader() {
      return apiKeyHeader;
    }

    /**
     * Sets the API key's header.
     *
     * @param apiKeyHeader the header
     */
    public void setApiKeyHeader(String apiKeyHeader) {
      this.apiKeyHeader = apiKeyHeader;
    }

    @Override
    public String toString() {
      return "Credentials[***]";
    }
  }

  /** Retry settings; unset ones keep saferetry-core's defaults. Mutable while bound. */
  public static class Retry {

    /** Creates the defaults. */
    public Retry() {}

    /** Attempts per call, the first included (1: no retries). */
    private Integer maxAttempts;

    /** The first backoff delay. */
    private Duration initialDelay;

    /** The longest backoff delay. */
    private Duration maxDelay;

    /** The backoff's growth per retry. */
    private Double multiplier;

    /** How long a call may take in all, retries and waits included. */
    private Duration deadline;

    /** The longest Retry-After hint the client waits for. */
    private Duration maxRetryAfter;

    /** {@return max attempts, or null} */
    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    /**
     * Sets max attempts.
     *
     * @param maxAttempts attempts
     */
    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    /** {@return the initial delay, or null} */
    public Duration getInitialDelay() {
      return initialDelay;
    }

    /**
     * Sets the initial delay.
     *
     * @param initialDelay delay
     */
    public void setInitialDelay(Duration initialDelay) {
      this.initialDelay = initialDelay;
    }

    /** {@return the max delay, or null} */
    public Duration getMaxDelay() {
      return maxDelay;
    }

    /**
     * Sets the max delay.
     *
     * @param maxDelay delay
     */
    public void setMaxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
    }

    /** {@return the multiplier, or null} */
    public Double getMultiplier() {
      return multiplier;
    }

    /**
     * Sets the multiplier.
     *
     * @param multiplier multiplier
     */
    public void setMultiplier(Double multiplier) {
      this.multiplier = multiplier;
    }

    /** {@return the deadline, or null} */
    public Duration getDeadline() {
      return deadline;
    }

    /**
     * Sets the deadline.
     *
     * @param deadline deadline
     */
    public void setDeadline(Duration deadline) {
      this.deadline = deadline;
    }

    /** {@return the longest Retry-After, or null} */
    public Duration getMaxRetryAfter() {
      return maxRetryAfter;
    }

    /**
     * Sets the longest Retry-After.
     *
     * @param maxRetryAfter duration
     */
    public void setMaxRetryAfter(Duration maxRetryAfter) {
      this.maxRetryAfter = maxRetryAfter;
    }
  }

  /** Circuit breaker settings; unset ones keep saferetry-core's defaults. Mutable while bound. */
  public static class Breaker {

    /** Creates the defaults. */
    public Breaker() {}

    /** Whether the breaker opens at all. */
    private boolean enabled = true;

    /** The failure rate, in percent, at which the breaker opens. */
    private Float failureRateThreshold;

    /** How many recent calls the failure rate is judged over. */
    private Integer slidingWindowSize;

    /** How many calls the window needs before it judges. */
    private Integer minimumCalls;

    /** How long the breaker stays open before it lets probes through. */
    private Duration waitInOpenState;

    /** How many probes a half-open breaker lets through. */
    private Integer halfOpenProbes;

    /** {@return whether enabled} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether enabled.
     *
     * @param enabled whether
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** {@return the threshold, or null} */
    public Float getFailureRateThreshold() {
      return failureRateThreshold;
    }

    /**
     * Sets the threshold.
     *
     * @param failureRateThreshold percent
     */
    public void setFailureRateThreshold(Float failureRateThreshold) {
      this.failureRateThreshold = failureRateThreshold;
    }

    /** {@return the window, or null} */
    public Integer getSlidingWindowSize() {
      return slidingWindowSize;
    }

    /**
     * Sets the window.
     *
     * @param slidingWindowSize calls
     */
    public void setSlidingWindowSize(Integer slidingWindowSize) {
      this.slidingWindowSize = slidingWindowSize;
    }

    /** {@return the minimum calls, or null} */
    public Integer getMinimumCalls() {
      return minimumCalls;
    }

    /**
     * Sets the minimum calls.
     *
     * @param minimumCalls calls
     */
    public void setMinimumCalls(Integer minimumCalls) {
      this.minimumCalls = minimumCalls;
    }

    /** {@return the wait when open, or null} */
    public Duration getWaitInOpenState() {
      return waitInOpenState;
    }

    /**
     * Sets the wait when open.
     *
     * @param waitInOpenState wait
     */
    public void setWaitInOpenState(Duration waitInOpenState) {
      this.waitInOpenState = waitInOpenState;
    }

    /** {@return the half-open probes, or null} */
    public Integer getHalfOpenProbes() {
      return halfOpenProbes;
    }

    /**
     * Sets the half-open probes.
     *
     * @param halfOpenProbes probes
     */
    public void setHalfOpenProbes(Integer halfOpenProbes) {
      this.halfOpenProbes = halfOpenProbes;
    }
  }

  /** Retry budget settings; unset ones keep saferetry-core's defaults. Mutable while bound. */
  public static class Budget {

    /** Creates the defaults. */
    public Budget() {}

    /** Whether retries draw on a budget (a storm of retries is cut). */
    private boolean enabled = true;

    /** The budget's capacity in tokens. */
    private Double capacity;

    /** Tokens a retry costs. */
    private Double retryCost;

    /** Tokens a success gives back. */
    private Double successCredit;

    /** {@return whether enabled} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether enabled.
     *
     * @param enabled whether
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** {@return the capacity, or null} */
    public Double getCapacity() {
      return capacity;
    }

    /**
     * Sets the capacity.
     *
     * @param capacity tokens
     */
    public void setCapacity(Double capacity) {
      this.capacity = capacity;
    }

    /** {@return the retry cost, or null} */
    public Double getRetryCost() {
      return retryCost;
    }

    /**
     * Sets the retry cost.
     *
     * @param retryCost tokens
     */
    public void setRetryCost(Double retryCost) {
      this.retryCost = retryCost;
    }

    /** {@return the success credit, or null} */
    public Double getSuccessCredit() {
      return successCredit;
    }

    /**
     * Sets the success credit.
     *
     * @param successCredit tokens
     */
    public void setSuccessCredit(Double successCredit) {
      this.successCredit = successCredit;
    }
  }

  /** Where keys are kept. Mutable while bound. */
  public static class KeyStore {

    /** Creates the defaults. */
    public KeyStore() {}

    /**
     * memory, file (a directory, owner-only) or datasource (the application's DataSource, which the
     * outbox needs). Default: datasource when the application has one, else memory.
     */
    private SafeRetryProperties.KeyStoreType type;

    /** The file store's directory (type file). */
    private Path directory;

    /** {@return the type, or null for the default} */
    public SafeRetryProperties.KeyStoreType getType() {
      return type;
    }

    /**
     * Sets the type.
     *
     * @param type the type
     */
    public void setType(SafeRetryProperties.KeyStoreType type) {
      this.type = type;
    }

    /** {@return the directory, or null} */
    public Path getDirectory() {
      return directory;
    }

    /**
     * Sets the directory.
     *
     * @param directory the directory
     */
    public void setDirectory(Path directory) {
      this.directory = directory;
    }
  }
}
