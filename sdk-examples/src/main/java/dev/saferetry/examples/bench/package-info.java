/**
 * The overhead benchmark: the same POSTs made with bare OkHttp and Jackson, through the SDK with
 * the in-memory store and through the SDK with the file store, against one local server that
 * returns a fixed small JSON answer. Run {@link dev.saferetry.examples.bench.OverheadBenchmark}.
 */
package dev.saferetry.examples.bench;
