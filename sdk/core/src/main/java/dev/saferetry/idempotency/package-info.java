/**
 * Idempotency keys, where they go on the wire, intents and the key store SPI that keeps a key per
 * intent — in memory here ({@link dev.saferetry.idempotency.KeyStore#inMemory()}), durably on disk
 * in {@code dev.saferetry.filestore}.
 */
package dev.saferetry.idempotency;
