/**
 * Not API. What the key store, the outbox and the inbox share: dialect detection and its
 * differences, checked SQL names and exact text, schema scripts shipped as resources, the schema
 * version table and the gate that creates or checks a component's tables, transactions on borrowed
 * connections, and purges in bounded batches. Anything here may change in any release.
 */
package dev.saferetry.jdbc.internal;
