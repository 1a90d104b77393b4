/**
 * The guided tour ({@link dev.saferetry.examples.demo.Demo}, the default main class of {@code mvn
 * -pl sdk-examples exec:java}): it arranges the world around each example (an in-process reference
 * server that loses responses or holds a request, an outage proxy, a process killed with SIGKILL),
 * runs the example's code with a client that records every attempt, and compares the charges the
 * server made with the charges intended. Not something to copy into a service.
 */
package dev.saferetry.examples.demo;
