/**
 * The chaos soak: client worker processes create charges through a fault-injecting loopback proxy
 * in front of the reference server, while a coordinator kills them with SIGKILL and restarts them
 * on their file key stores. At the end every intent must have caused exactly one side effect on the
 * server. Run {@link dev.saferetry.soak.ChaosSoak}.
 */
package dev.saferetry.soak;
