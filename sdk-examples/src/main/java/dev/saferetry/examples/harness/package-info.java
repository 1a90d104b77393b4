/**
 * Scaffolding shared by the guided tour, the benchmarks, the chaos soak and the tests: child JVMs
 * and their class path, {@code --name value} argument parsing, the webhook receiver's HTTP
 * plumbing, and an outage proxy. Not API and not examples: nothing here is meant to be copied.
 */
package dev.saferetry.examples.harness;
