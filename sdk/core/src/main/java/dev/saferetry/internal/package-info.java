/**
 * Not API. The client's machinery: the attempt loop, OkHttp wiring, JSON handling and the
 * resilience4j adapters. Anything here may change in any release.
 */
package dev.saferetry.internal;
