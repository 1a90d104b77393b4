/**
 * The listener through which a client reports calls, attempts and retries, and the events it
 * receives.
 */
package dev.saferetry.event;
