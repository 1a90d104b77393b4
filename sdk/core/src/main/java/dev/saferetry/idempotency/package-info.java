/**
 * Idempotency keys, where they go on the wire, intents and the key store SPI that keeps a key per
 * intent — in memory or durably on disk.
 */
package dev.saferetry.idempotency;
