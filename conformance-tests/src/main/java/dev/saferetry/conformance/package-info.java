/**
 * The SafeRetry conformance suite: grades a server against the Idempotency-Key contract, or a
 * webhook receiver against the receiving contract (profile {@code webhook}), case by case (MUST /
 * SHOULD / MAY per profile) over raw HTTP, with verdicts PASS, FAIL, NOT RUN and ERROR and the
 * evidence of each. Entry points: {@link dev.saferetry.conformance.ConformanceRunner} (the command
 * line and {@code run}) and {@link dev.saferetry.conformance.ConformanceTests} (JUnit 5 dynamic
 * tests in a user's build), configured by {@link dev.saferetry.conformance.SuiteConfig}.
 */
package dev.saferetry.conformance;
