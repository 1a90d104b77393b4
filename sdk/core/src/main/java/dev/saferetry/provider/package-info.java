/**
 * Provider presets: each payment provider's idempotency rules as its published documentation states
 * them (key placement, body codec, replay marker, how a reused key or a running request is
 * answered, request id headers, key retention, departures from the common contract), with the pages
 * they were built from. {@code docs/requests-and-providers.md} in the repository explains every
 * value.
 */
package dev.saferetry.provider;
