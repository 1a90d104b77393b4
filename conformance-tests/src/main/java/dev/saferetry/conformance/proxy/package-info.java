/**
 * A fault-injecting HTTP/1.1 proxy for loopback tests: {@link
 * dev.saferetry.conformance.proxy.FaultProxy} in front of one server, with a plan that picks a
 * {@link dev.saferetry.conformance.proxy.Fault} per request (lose the answer after the server
 * committed, reset the connection, hold the answer back, answer 409/429/503 itself). The suite uses
 * it for its lost-response case; the SDK's examples and chaos soak use it to arrange outages and
 * network faults.
 */
package dev.saferetry.conformance.proxy;
