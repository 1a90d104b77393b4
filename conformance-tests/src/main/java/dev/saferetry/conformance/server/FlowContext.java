package dev.saferetry.conformance.server;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * What an {@link IdempotencyFlow} needs from its server.
 *
 * @param db the database
 * @param keys SQL on the idempotency table
 * @param clock the server clock (test hooks may move it)
 * @param lockTimeout age after which a pending record may be taken over
 * @param retention how long records count
 * @param faults armed faults
 * @param closing released when the server closes (ends hung requests)
 */
record FlowContext(
    Database db,
    KeyTable keys,
    Clock clock,
    Duration lockTimeout,
    Duration retention,
    Faults faults,
    CountDownLatch closing) {}
