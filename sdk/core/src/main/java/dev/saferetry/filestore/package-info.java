/**
 * Durable key stores: {@link dev.saferetry.filestore.FileKeyStore} keeps every intent's key in a
 * local directory, so that a process killed at any instant finds its intents again when it
 * restarts.
 */
package dev.saferetry.filestore;
