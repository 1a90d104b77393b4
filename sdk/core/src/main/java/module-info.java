/**
 * SafeRetry: a client for payment-style HTTP APIs under which a retry can never cause a second side
 * effect. Start with {@link dev.saferetry.SafeRetryClient}.
 *
 * <p>Only API packages are exported; {@code dev.saferetry.internal} and its subpackages are the
 * SDK's machinery. OkHttp ({@code OkHttpClient}, {@code Interceptor}) and Jackson ({@code
 * ObjectMapper}) appear in the client builder's signatures, so those modules are required
 * transitively; resilience4j and SLF4J are used inside only.
 */
module dev.saferetry {
  requires transitive okhttp3;
  requires transitive com.fasterxml.jackson.databind;
  requires java.sql;
  requires io.github.resilience4j.core;
  requires io.github.resilience4j.retry;
  requires io.github.resilience4j.circuitbreaker;
  requires org.slf4j;

  exports dev.saferetry;
  exports dev.saferetry.codec;
  exports dev.saferetry.error;
  exports dev.saferetry.event;
  exports dev.saferetry.idempotency;
  exports dev.saferetry.pagination;
  exports dev.saferetry.provider;
  exports dev.saferetry.resilience;
}
