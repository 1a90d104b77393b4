package dev.saferetry.spring;

import dev.saferetry.ApiKeyStyle;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Builds the clients of {@code saferetry.clients.<name>.*}, one per bean, and closes the key stores
 * it opened for them (file stores) after the clients.
 *
 * <p>This class is thread-safe.
 */
final class SafeRetryClientFactory implements DisposableBean {
  private final SafeRetryProperties properties;
  private final ObjectProvider<JdbcKeyStore> jdbcKeyStore;
  private final ObjectProvider<SafeRetryClientCustomizer> customizers;
  private final ObjectProvider<SafeRetryListener> listeners;
  private final List<Function<String, SafeRetryListener>> perClientListeners;
  private final List<KeyStore> owned = new ArrayList<>();

  SafeRetryClientFactory(
      SafeRetryProperties properties,
      ObjectProvider<JdbcKeyStore> jdbcKeyStore,
      ObjectProvider<SafeRetryClientCustomizer> customizers,
      ObjectProvider<SafeRetryListener> listeners,
      List<Function<String, SafeRetryListener>> perClientListeners) {
    this.properties = properties;
    this.jdbcKeyStore = jdbcKeyStore;
    this.customizers = customizers;
    this.listeners = listeners;
    this.perClientListeners = List.copyOf(perClientListeners);
  }

  /** Builds the client named {@code name}. */
  SafeRetryClient create(String name) {
    ClientProperties p = properties.getClients().get(name);
    if (p == null) {
      throw new IllegalArgumentException("no properties saferetry.clients." + name);
    }
    SafeRetryClientBuilder b = SafeRetryClient.builder().name(name);
    if (p.getPreset() != null) {
      b.preset(Presets.named(name, p.getPreset()));
    }
    if (p.getBaseUrl() == null || p.getBaseUrl().isBlank()) {
      throw new IllegalArgumentException("saferetry.clients." + name + ".base-url is required");
    }
    b.baseUrl(p.getBaseUrl());
    ClientProperties.Credentials c = p.getCredentials();
    if (c.getApiKeyHeader() != null) {
      b.apiKeyStyle(ApiKeyStyle.header(c.getApiKeyHeader()));
    }
    if (c.getApiKey() != null) {
      b.apiKey(c.getApiKey());
    }
    p.getHeaders().forEach(b::header);
    b.tenant(p.getTenant() != null ? p.getTenant() : name);
    b.retryPolicy(retry(p.getRetry()));
    b.breakerPolicy(breaker(p.getBreaker()));
    b.retryBudget(budget(p.getBudget()));
    b.keyStore(keyStore(name, p.getKeyStore()));
    List<SafeRetryListener> all = new ArrayList<>();
    for (Function<String, SafeRetryListener> f : perClientListeners) {
      all.add(f.apply(name));
    }
    listeners.orderedStream().forEach(all::add);
    if (!all.isEmpty()) {
      b.listener(SafeRetryListener.composite(all.toArray(SafeRetryListener[]::new)));
    }
    customizers.orderedStream().forEach(cz -> cz.customize(name, b));
    return b.build();
  }

  /** {@return whether the client named {@code name} keeps its keys in the JDBC key store} */
  boolean usesDataSource(String name) {
    return type(properties.getClients().get(name).getKeyStore())
        == SafeRetryProperties.KeyStoreType.DATASOURCE;
  }

  private SafeRetryProperties.KeyStoreType type(ClientProperties.KeyStore k) {
    if (k.getType() != null) {
      return k.getType();
    }
    return jdbcKeyStore.getIfAvailable() != null
        ? SafeRetryProperties.KeyStoreType.DATASOURCE
        : SafeRetryProperties.KeyStoreType.MEMORY;
  }

  private KeyStore keyStore(String name, ClientProperties.KeyStore k) {
    switch (type(k)) {
      case MEMORY:
        return KeyStore.inMemory();
      case FILE:
        if (k.getDirectory() == null) {
          throw new IllegalArgumentException(
              "saferetry.clients." + name + ".key-store.directory is required for type file");
        }
        FileKeyStore file = FileKeyStore.open(k.getDirectory());
        synchronized (owned) {
          owned.add(file);
        }
        return file;
      default:
        JdbcKeyStore store = jdbcKeyStore.getIfAvailable();
        if (store == null) {
          throw new IllegalStateException(
              "saferetry.clients."
                  + name
                  + ".key-store.type is datasource, but the application has no single DataSource");
        }
        return store;
    }
  }

  static RetryPolicy retry(ClientProperties.Retry r) {
    RetryPolicy p = RetryPolicy.defaults();
    if (r.getMaxAttempts() != null) {
      p = p.withMaxAttempts(r.getMaxAttempts());
    }
    if (r.getInitialDelay() != null) {
      p = p.withInitialDelay(r.getInitialDelay());
    }
    if (r.getMaxDelay() != null) {
      p = p.withMaxDelay(r.getMaxDelay());
    }
    if (r.getMultiplier() != null) {
      p = p.withMultiplier(r.getMultiplier());
    }
    if (r.getDeadline() != null) {
      p = p.withDeadline(r.getDeadline());
    }
    if (r.getMaxRetryAfter() != null) {
      p = p.withMaxRetryAfter(r.getMaxRetryAfter());
    }
    return p;
  }

  private static BreakerPolicy breaker(ClientProperties.Breaker r) {
    if (!r.isEnabled()) {
      return BreakerPolicy.disabled();
    }
    BreakerPolicy p = BreakerPolicy.defaults();
    if (r.getFailureRateThreshold() != null) {
      p = p.withFailureRateThreshold(r.getFailureRateThreshold());
    }
    if (r.getSlidingWindowSize() != null) {
      p = p.withSlidingWindowSize(r.getSlidingWindowSize());
    }
    if (r.getMinimumCalls() != null) {
      p = p.withMinimumCalls(r.getMinimumCalls());
    }
    if (r.getWaitInOpenState() != null) {
      p = p.withWaitInOpenState(r.getWaitInOpenState());
    }
    if (r.getHalfOpenProbes() != null) {
      p = p.withHalfOpenProbes(r.getHalfOpenProbes());
    }
    return p;
  }

  private static RetryBudgetPolicy budget(ClientProperties.Budget r) {
    if (!r.isEnabled()) {
      return RetryBudgetPolicy.unlimited();
    }
    RetryBudgetPolicy p = RetryBudgetPolicy.defaults();
    if (r.getCapacity() != null) {
      p = p.withCapacity(r.getCapacity());
    }
    if (r.getRetryCost() != null) {
      p = p.withRetryCost(r.getRetryCost());
    }
    if (r.getSuccessCredit() != null) {
      p = p.withSuccessCredit(r.getSuccessCredit());
    }
    return p;
  }

  @Override
  public void destroy() {
    synchronized (owned) {
      for (KeyStore s : owned) {
        s.close();
      }
      owned.clear();
    }
  }
}
