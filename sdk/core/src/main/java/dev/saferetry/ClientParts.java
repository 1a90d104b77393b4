package dev.saferetry;

import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.internal.ResponseReader;
import java.util.concurrent.Executor;

/**
 * What a call uses of its client: the client's settings and its parts, each a leaf the call asks
 * (nothing here calls back into the call).
 *
 * @param config the client's settings
 * @param requests prepares requests
 * @param intents records intents and their outcomes
 * @param transport sends attempts
 * @param breaker the circuit breaker
 * @param retry resilience4j's retry, told of every decision (its events and metrics)
 * @param budget the retry budget
 * @param listener the client's listener, isolated from its exceptions
 * @param io where asynchronous calls run their blocking work
 * @param reader reads 2xx bodies as the operation's response type
 * @param decisionRules the client's rules for the retry decision, made once per client
 */
record ClientParts(
    ClientConfig config,
    RequestFactory requests,
    Intents intents,
    Transport transport,
    Breaker breaker,
    io.github.resilience4j.retry.Retry retry,
    RetryBudget budget,
    SafeRetryListener listener,
    Executor io,
    ResponseReader reader,
    Decision.Rules decisionRules) {}
