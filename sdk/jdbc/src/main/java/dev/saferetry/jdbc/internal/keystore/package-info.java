/**
 * Not API. The key store's table: its SQL, the rows it reads and writes (with the outbox's columns
 * and codes, which every intent row carries), the stored request's seal, and the batched writes of
 * PostgreSQL. Uses {@code dev.saferetry.jdbc.internal}; never the outbox's machinery.
 */
package dev.saferetry.jdbc.internal.keystore;
