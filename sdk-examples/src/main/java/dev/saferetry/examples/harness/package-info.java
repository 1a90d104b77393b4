/**
 * Scaffolding shared by the guided tour, the benchmarks, the chaos soak and the tests: {@code
 * --name value} argument parsing and the webhook receiver's HTTP plumbing (child JVMs and fake time
 * come from the SDK's test fixtures, fault proxies from the conformance suite). Not API and not
 * examples: nothing here is meant to be copied.
 */
package dev.saferetry.examples.harness;
