package dev.saferetry.spring;

import dev.saferetry.event.SafeRetryListener;

/** Makes the listener one client gets (meters and observations carry the client's name). */
@FunctionalInterface
interface PerClientListener {
  SafeRetryListener forClient(String clientName);
}
