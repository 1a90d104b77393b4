package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.TransportFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * Failures before the request is handed to a connection — an unknown host, a failed TLS handshake —
 * are retried (nothing was sent, so a retry is safe, and both are often transient) and, when
 * retries run out, end FAILED with reason NOT_SENT: the request provably never reached the server.
 */
class TransportFailuresTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  private void assertRetriedAndNotSent(SafeRetryClient c) {
    assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            CallFailedException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.NOT_SENT);
              assertThat(e.attempts())
                  .hasSize(4)
                  .allMatch(a -> a.failure() == TransportFailure.CONNECT_FAILED);
            });
  }

  @Test
  void anUnknownHostIsRetriedAndEndsAsNotSent() {
    OkHttpClient noDns =
        new OkHttpClient.Builder()
            .dns(
                host -> {
                  throw new UnknownHostException(host);
                })
            .build();
    try (SafeRetryClient c =
        builder().baseUrl("http://payments.invalid/").okHttpClient(noDns).build()) {
      assertRetriedAndNotSent(c);
    }
  }

  @Test
  void aFailedTlsHandshakeIsRetriedAndEndsAsNotSent() throws Exception {
    // A plain-HTTP peer answers the TLS handshake with text and hangs up: no request is sent.
    AtomicInteger handshakes = new AtomicInteger();
    try (ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread peer =
          new Thread(
              () -> {
                while (!plain.isClosed()) {
                  try (Socket s = plain.accept()) {
                    handshakes.incrementAndGet();
                    s.getOutputStream()
                        .write(
                            "HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                  } catch (IOException closed) {
                    return;
                  }
                }
              });
      peer.setDaemon(true);
      peer.start();
      try (SafeRetryClient c =
          builder().baseUrl("https://127.0.0.1:" + plain.getLocalPort() + "/").build()) {
        assertRetriedAndNotSent(c);
      }
    }
    assertThat(handshakes.get()).isEqualTo(4);
  }
}
