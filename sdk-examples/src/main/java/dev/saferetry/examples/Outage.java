package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.Sleeper;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Outage: while the API answers {@code 503} with {@code Retry-After}, the SDK waits as asked and
 * retries with the same key; then (UNKNOWN) the breaker opens. Later rounds re-drive the intent:
 * one charge. With no argument, a fake API of its own is down for five requests.
 */
public final class Outage {
  /** How long the caller waits between two rounds (a scheduled job, in a service). */
  public static final Duration BETWEEN_ROUNDS = Duration.ofMillis(600);

  /** Charges order 1003 round after round until it succeeds; {@code watch} sees the breaker. */
  public static CallResult<Charge> run(
      SafeRetryClientBuilder builder, Sleeper wait, Consumer<CircuitBreaker> watch)
      throws InterruptedException {
    try (SafeRetryClient client =
        builder
            .retryPolicy(RetryPolicy.defaults().withMaxAttempts(2))
            .breakerPolicy( // opens after 3 failures for 1 s (defaults: 20 calls, 30 s)
                BreakerPolicy.defaults()
                    .withSlidingWindowSize(3)
                    .withMinimumCalls(3)
                    .withWaitInOpenState(Duration.ofSeconds(1))
                    .withHalfOpenProbes(1))
            .build()) {
      watch.accept(client.circuitBreaker()); // its state changes: closed, open, half-open
      var order = ChargeCreateParams.builder().amount(2500L).currency("eur");
      ChargeCreateParams params = order.description("order 1003").build();
      RequestOptions intent = RequestOptions.none().withIntentId("order-1003/charge");
      for (int round = 1; round <= 10; round++) {
        try {
          CallResult<Charge> done = new PaymentsClient(client).charges().create(params, intent);
          System.out.printf("round %d: charge %s, key %s%n", round, done.value().id(), done.key());
          return done;
        } catch (OutcomeUnknownException e) {
          System.out.printf("round %d: UNKNOWN (%s), key %s%n", round, e.reason(), e.key());
        } catch (CallFailedException e) {
          if (e.reason() != Reason.CIRCUIT_OPEN) {
            throw e; // a definitive answer: waiting will not change it
          }
          System.out.printf("round %d: breaker open, nothing sent; intent pending%n", round);
        }
        wait.sleep(BETWEEN_ROUNDS); // in a service, a scheduled job re-drives it later
      }
      throw new IllegalStateException("still down after 10 rounds; the intent stays pending");
    }
  }

  /** {@code [base-url]}: that API; without one, a fake one down for five requests. */
  public static void main(String[] args) throws InterruptedException {
    try (FakeProvider fake = FakeProvider.start()) {
      fake.arm(Fault.failBeforeCommit(503).withRetryAfter(Duration.ofSeconds(1)).times(5));
      run(
          SafeRetryClient.builder().baseUrl(args.length > 0 ? args[0] : fake.baseUrl()).apiKey("k"),
          Sleeper.system(),
          b -> b.getEventPublisher().onStateTransition(System.out::println));
      System.out.printf("the fake API made %d charge(s)%n", fake.effects().size());
    }
  }
}
