package dev.saferetry.conformance.proxy;

import java.io.IOException;
import okhttp3.Headers;

/**
 * An upstream answer the client never received ({@link Fault#dropResponse()}), or the error that
 * replaced it: what the server did while the client saw its connection close.
 *
 * <p>Immutable and thread-safe.
 *
 * @param status the upstream's status, or 0 when the upstream call failed
 * @param headers the upstream's headers
 * @param body the upstream's body ("" when none)
 * @param failure the upstream call's error, or null
 * @param startNanos when the proxy forwarded the request ({@link System#nanoTime()})
 * @param endNanos when the answer ended or the error happened
 */
public record LostAnswer(
    int status,
    Headers headers,
    String body,
    IOException failure,
    long startNanos,
    long endNanos) {}
