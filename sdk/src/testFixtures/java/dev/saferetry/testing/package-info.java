/**
 * Test fixtures shared by the SDK's tests and by {@code sdk-examples} (its tests, its guided tour
 * and its chaos soak): a fake clock and sleeper, and child JVMs for crash tests. Not part of the
 * SDK's artifact.
 */
package dev.saferetry.testing;
