/**
 * The listener through which a client reports calls, attempts, retries and breaker changes, and the
 * events it receives.
 */
package dev.saferetry.event;
