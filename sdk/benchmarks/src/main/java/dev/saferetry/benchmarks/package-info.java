/**
 * The JMH benchmarks: the SDK's call path against bare OkHttp and Jackson ({@link
 * dev.saferetry.benchmarks.CallOverhead}), the file key store against raw writes + fdatasync
 * ({@link dev.saferetry.benchmarks.FileKeyStoreCost}) and the JDBC key store against plain JDBC
 * inserts ({@link dev.saferetry.benchmarks.JdbcKeyStoreCost}), each in one run with its baseline.
 * {@link dev.saferetry.benchmarks.Benchmarks} runs them and prints the ratios; {@link
 * dev.saferetry.benchmarks.AsyncBenchmark} and {@link dev.saferetry.benchmarks.DayVolume} are
 * one-shot measurements (threads and heap of calls in flight; a day's log) run as plain mains.
 */
package dev.saferetry.benchmarks;
