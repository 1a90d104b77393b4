/** The listener through which a client reports attempts, retries and breaker changes. */
package dev.saferetry.event;
