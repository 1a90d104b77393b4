/**
 * SafeRetry: a client for payment-style HTTP APIs under which a retry can never cause a second side
 * effect. Start with {@link dev.saferetry.SafeRetryClient}.
 *
 * <p>Only API packages are exported; {@code dev.saferetry.internal} and its subpackages are the
 * SDK's machinery, with the call engine package-private in {@code dev.saferetry}. OkHttp ({@code
 * OkHttpClient}, {@code Interceptor}) and Jackson ({@code ObjectMapper}) appear in the client
 * builder's signatures, and the client exposes its resilience4j {@code Retry} and {@code
 * CircuitBreaker}, so those modules are required transitively; SLF4J is used inside only.
 */
// resilience4j publishes automatic module names only (no module-info of its own)
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.saferetry {
  requires transitive okhttp3;
  requires transitive com.fasterxml.jackson.databind;
  requires java.sql;
  requires transitive io.github.resilience4j.core;
  requires transitive io.github.resilience4j.retry;
  requires transitive io.github.resilience4j.circuitbreaker;
  requires org.slf4j;

  exports dev.saferetry;
  exports dev.saferetry.call;
  exports dev.saferetry.codec;
  exports dev.saferetry.error;
  exports dev.saferetry.event;
  exports dev.saferetry.idempotency;
  exports dev.saferetry.pagination;
  exports dev.saferetry.provider;
  exports dev.saferetry.resilience;
  exports dev.saferetry.filestore;
  exports dev.saferetry.model;

  // Jackson makes the Expandable deserializer (package-private) and reads its JSON value.
  opens dev.saferetry.model to
      com.fasterxml.jackson.databind;
}
