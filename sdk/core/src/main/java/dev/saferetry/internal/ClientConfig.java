package dev.saferetry.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Everything a client was built with, validated by the builder.
 *
 * @param okHttpClient the caller's OkHttp client, or null for the SDK's own
 * @param asyncExecutor the caller's executor for asynchronous calls, or null for the SDK's own
 * @param asyncConcurrency how many asynchronous calls the SDK's own executor runs at once
 * @param attemptHeader the header carrying the attempt number, or null for none
 * @param shape how requests are written and answers read: codec, headers, provider rules
 */
public record ClientConfig(
    String name,
    HttpUrl baseUrl,
    String apiKey,
    OkHttpClient okHttpClient,
    ObjectMapper mapper,
    KeyPlacement keyPlacement,
    KeyStore keyStore,
    String tenant,
    Duration intentRetention,
    RetryPolicy retryPolicy,
    RetryClassifier classifier,
    BreakerPolicy breakerPolicy,
    RetryBudgetPolicy retryBudget,
    SafeRetryListener listener,
    Clock clock,
    Sleeper sleeper,
    DoubleSupplier jitter,
    long maxResponseBytes,
    Executor asyncExecutor,
    int asyncConcurrency,
    String attemptHeader,
    ApiShape shape) {

  /** Prints no secret: no API key, and the base URL without user info or query. */
  @Override
  public String toString() {
    return "ClientConfig["
        + name
        + ", "
        + Redaction.url(baseUrl)
        + ", "
        + keyPlacement
        + (shape.presetName() == null ? "" : ", preset " + shape.presetName())
        + "]";
  }
}
